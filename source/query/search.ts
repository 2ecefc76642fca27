import {describeActivity, safeJson} from '../text/describe-activity.js';
import {isToolActivity, type Activity, type Model} from '../model/state.js';
import {assertNever} from '../model/assert-never.js';
import {includesText, nativeNeedleLimit, Needle} from './find-text.js';

/*
 * Search over what an activity says: its one-line form, paths and commands (in the tool arguments),
 * queries, results, reasoning, errors, delegations, and the expert. Each activity's text is folded to
 * lower case once and kept (up to `keptTextChars`), so each keystroke of an incremental search over 100,000
 * activities is one `indexOf` per activity, with no regular expression and no allocation; a search can stop
 * and go on (`continueScan`), so that the viewer works through a large log between keys.
 */

/**
 * Each field is searched up to this many characters. A tool result can be a whole file; holding a
 * folded copy of every result in full would double the memory of a large log for little gain.
 */
export const maxFieldChars = 64 * 1024;

/**
 * The longest query worth typing: no searched field is longer (`maxFieldChars`), and a query typed at a prompt
 * holds no line break, so it cannot span two. The prompts keep no more than this (`line-editor.ts`).
 */
export const maxQueryChars = maxFieldChars;

/** Whether `needle` (folded) can match no activity's text at all: it is longer than any one field and spans none. */
function longerThanAnyField(needle: string): boolean {
	return needle.length > maxFieldChars && !needle.includes('\n');
}

/** By activity: activities never change in place (state.ts), so a cached text never goes stale. */
// eslint-disable-next-line no-restricted-syntax -- a pure function of an activity, which never changes in place, kept with it and dying with it (docs/architecture.md)
const cache = new WeakMap<Activity, string>();

/**
 * Folds case without moving any character: `highlightRanges` maps positions in the folded text straight
 * back to the displayed one. `İ` is the one character whose lower case is longer (`i̇`), so it folds to `i`.
 */
export function foldCase(text: string): string {
	return (text.includes('\u0130') ? text.replaceAll('\u0130', 'i') : text).toLowerCase();
}

/**
 * The searchable text of an activity, folded to lower case (see `foldCase`), fields joined by line
 * breaks so that a query never matches across two of them. Built once per activity.
 */
export function activityText(activity: Activity): string {
	const cached = cache.get(activity);
	if (cached !== undefined) return cached;
	const text = makeText(activity);
	cache.set(activity, text);
	return text;
}

function makeText(activity: Activity): string {
	return foldCase(searchFields(activity).map(clipField).join('\n'));
}

function clipField(text: string): string {
	return text.length > maxFieldChars ? text.slice(0, maxFieldChars) : text;
}

function searchFields(activity: Activity): string[] {
	const line = describeActivity(activity);
	const fields = [activity.expertKey, activity.type, line.verb, line.detail];
	if (activity.reasoning !== undefined) fields.push(activity.reasoning);
	if (isToolActivity(activity)) {
		fields.push(activity.skillName, activity.toolName, safeJson(activity.args));
		if (activity.message !== undefined) fields.push(activity.message);
		if (activity.result) fields.push(activity.result.text, activity.result.error ?? '');
		return fields.filter(field => field !== '');
	}

	switch (activity.type) {
		case 'query':
		case 'complete':
			fields.push(activity.text);
			break;
		case 'error':
			fields.push(activity.errorName, activity.message);
			break;
		case 'retry':
			fields.push(activity.reason);
			break;
		case 'delegationComplete':
			for (const result of activity.results) fields.push(result.expertKey, result.text);
			break;
		case 'delegate':
			fields.push(activity.delegateExpertKey, activity.query);
			if (activity.message !== undefined) fields.push(activity.message);
			if (activity.result) fields.push(activity.result.text, activity.result.error ?? '');
			break;
		default:
			return assertNever(activity);
	}

	return fields.filter(field => field !== '');
}

export type FindOptions = {
	/** Only activities this accepts are searched (the ones a filter shows, for instance). */
	include?: (activity: Activity, index: number) => boolean;
	/**
	 * Search only these indices. When a query grows by typing (`tes` → `test`), every new match was an
	 * old match, so passing the previous matches makes each keystroke cheaper still.
	 */
	within?: readonly number[];
};

/**
 * The folded texts are kept up to this many characters per model (about as many bytes): a log of half a
 * million tool results would otherwise hold a folded copy of every result, searched or not, as large as the
 * results themselves. Past it, a search makes each text again as it passes and lets it go.
 */
export const keptTextChars = 48 * 1024 * 1024;

/**
 * Per model, the searchable texts by activity index, with the activity each was made from (an activity that
 * changed is a new object, and its text is made again). A keystroke then reads three arrays in order instead
 * of looking each activity up in a hash table: over a million activities, most of its time went to the
 * lookups. Kept from the first activity on, without gaps, until `keptTextChars`.
 */
type Texts = {
	from: Array<Activity | undefined>;
	texts: string[];
	/** Characters in `texts`. */
	chars: number;
	/** Where no more texts are kept (`keptTextChars` reached); the arrays hold what comes before. */
	full: boolean;
	/**
	 * The texts before `sureCount` were all checked against their activities at model revision `sureRev`: while
	 * the model stays at that revision (every event reduced moves it), a search reads them without the check,
	 * which over a large log cost more than the search itself (the activities lie all over the heap).
	 */
	sureRev: number;
	sureCount: number;
	/** A pass of `prepareTexts` from the first activity: the revision it began at and where it got to. */
	pass: {rev: number; next: number} | undefined;
};
/** By the activities array: a shallow copy of the model (a load in a worker moving its event count) shares it. */
// eslint-disable-next-line no-restricted-syntax -- a side table of the model's own derived data, keyed by its activities array and dying with it: model/ may not hold query/'s types (docs/architecture.md)
const textsByModel = new WeakMap<Model['activities'], Texts>();

function textsOf(model: Model): Texts {
	let texts = textsByModel.get(model.activities);
	if (!texts) {
		texts = {from: [], texts: [], chars: 0, full: false, sureRev: -1, sureCount: 0, pass: undefined};
		textsByModel.set(model.activities, texts);
	}

	return texts;
}

/** The text of the activity at `index`, made (and kept, within the budget) when it is not yet, or was made from an older activity. */
function textAt(texts: Texts, activity: Activity, index: number): string {
	const kept = texts.texts;
	if (index < kept.length) {
		if (texts.from[index] === activity) return kept[index]!;
		const text = cache.get(activity) ?? makeText(activity);
		texts.chars += text.length - kept[index]!.length;
		texts.from[index] = activity;
		kept[index] = text;
		return text;
	}

	// Not kept by activity too: the arrays are the cache here, and a table entry per activity of a large
	// log weighs more than its text. One kept by activity (by a filter) is taken, not made again.
	const text = cache.get(activity) ?? makeText(activity);
	if (index === kept.length && !texts.full) {
		if (texts.chars + text.length > keptTextChars) texts.full = true;
		else {
			texts.from.push(activity);
			kept.push(text);
			texts.chars += text.length;
		}
	}

	return text;
}

/** How many texts are made between two asks whether to stop: asking costs a clock read. */
const prepareStride = 64;

/**
 * Makes the searchable texts ahead of a search, in order from activity `from`, until `stop` says so (asked
 * every few activities, with the characters of the texts passed so far in this call) or no more are kept
 * (`keptTextChars`). Returns where it stopped: the number of activities once every text is made. Made on idle
 * time after a load, so that the first keystroke of a search only reads them: what it finds is the same
 * either way, as a text not made yet is made when the search reaches it.
 */
export function prepareTexts(model: Model, from: number, stop: (chars: number) => boolean): number {
	const {activities} = model;
	const texts = textsOf(model);
	let index = Math.max(0, from);
	// Only a pass that went from the first activity to the last without a gap checked every text.
	if (index === 0) texts.pass = {rev: model.rev, next: 0};
	else if (texts.pass?.next !== index) texts.pass = undefined;
	let chars = 0;
	while (index < activities.length && !texts.full) {
		const end = Math.min(activities.length, index + prepareStride);
		for (; index < end; index++) chars += textAt(texts, activities[index]!, index).length;
		if (stop(chars)) break;
	}

	if (texts.pass) texts.pass.next = index;
	// A pass that met no change on the way (the model stayed at the revision it began at) checked every text.
	if (index === activities.length && texts.pass?.rev === model.rev) markSure(texts, model);
	return index;
}

/** Whether no more texts are kept for this model (`keptTextChars` reached): making more ahead is pointless. */
export function textsFull(model: Model): boolean {
	return textsOf(model).full;
}

function markSure(texts: Texts, model: Model): void {
	texts.sureRev = model.rev;
	texts.sureCount = model.activities.length;
}

/** How many texts can be read without checking them against their activities: see `Texts.sureRev`. */
function sureCount(texts: Texts, model: Model): number {
	return texts.sureRev === model.rev ? Math.min(texts.sureCount, texts.texts.length) : 0;
}

/**
 * The searchable text (as `activityText`) of one model's activity by index, for a pass over every activity
 * (a filter's): read from the texts made ahead while they are current, else made (and kept, within the budget).
 */
export function textReader(model: Model): (index: number) => string {
	const texts = textsOf(model);
	const sure = sureCount(texts, model);
	const known = texts.texts;
	const {activities} = model;
	return index => {
		if (index < sure) return known[index]!;
		const activity = activities[index];
		return activity === undefined ? '' : textAt(texts, activity, index);
	};
}

/**
 * A search that can stop and go on (`continueScan`), so that a search over half a million activities is
 * worked through in short slices between keys. It goes through the activities in ascending order, first those
 * among an earlier search's matches (`FindOptions.within`: below where that one had got to, only its matches
 * can match), then every one after; so its matches so far are always the first ones, ascending, and every
 * activity below `scanCovered` is decided.
 */
export type MatchScan = {
	readonly needle: string;
	/** The needle as the scan looks for it in each text (a long one's table made once, for this scan). */
	readonly finder: Needle;
	/** The model revision it began at: what it finds is for that revision. */
	readonly rev: number;
	readonly include: FindOptions['include'];
	readonly within: readonly number[] | undefined;
	/** How many of `within` are searched (it may be a list that still grows), and where they stop counting. */
	readonly withinCount: number;
	readonly withinEnd: number;
	/** The next position in `within`, then the next activity index from `withinEnd` on. */
	withinNext: number;
	next: number;
	/** Activities tested so far. */
	tested: number;
	readonly matches: number[];
	done: boolean;
};

export type ScanStart = {
	include?: FindOptions['include'];
	/** An earlier search of a query this one holds: its matches so far, and the activity it had got to. */
	within?: {matches: readonly number[]; end: number};
};

export function startScan(model: Model, query: string, start: ScanStart = {}): MatchScan {
	const needle = foldCase(query);
	const within = start.within;
	return {
		needle,
		finder: new Needle(needle),
		rev: model.rev,
		include: start.include,
		within: within?.matches,
		withinCount: within?.matches.length ?? 0,
		withinEnd: within ? Math.min(within.end, model.activities.length) : 0,
		withinNext: 0,
		next: within ? Math.min(within.end, model.activities.length) : 0,
		tested: 0,
		matches: [],
		done: needle === '' || longerThanAnyField(needle),
	};
}

/** Every activity below this is decided: a match is in `scan.matches`, any other is none. */
export function scanCovered(scan: MatchScan): number {
	if (scan.withinNext < scan.withinCount) return scan.within![scan.withinNext]!;
	return scan.next;
}

/** How much of its work a scan has done, from 0 to 1, for a model of `total` activities. */
export function scanShare(scan: MatchScan, total: number): number {
	if (scan.done) return 1;
	const work = scan.withinCount + Math.max(0, total - scan.withinEnd);
	return work === 0 ? 1 : Math.min(1, (scan.withinNext + scan.next - scan.withinEnd) / work);
}

/** How many activities are tested between two asks whether to stop: asking costs a clock read. */
const scanStride = 256;

/**
 * Goes on with a scan over `model` (the one it began on, or the same activities grown: activities appended
 * after it began are searched too) until `stop` says so (asked every few hundred activities) or it is done.
 * Returns whether it is done.
 */
export function continueScan(model: Model, scan: MatchScan, stop: () => boolean = () => false): boolean {
	if (scan.done) return true;
	const {activities} = model;
	const texts = textsOf(model);
	const sure = sureCount(texts, model);
	const known = texts.texts;
	const {needle, finder, include, within, matches} = scan;
	// A longer needle than V8 searches in linear time (a pasted query) goes through the scan's `Needle`, whose cost
	// does not grow with the needle's length times the text's; the common loop below is V8's alone.
	const short = needle.length <= nativeNeedleLimit;
	const test = (index: number) => {
		const activity = activities[index];
		if (!activity) return;
		// Made before the filter is asked, so that the arrays fill in order and stay dense.
		const text = index < sure ? known[index]! : textAt(texts, activity, index);
		if (finder.isIn(text) && (!include || include(activity, index))) matches.push(index);
	};

	if (within) {
		while (scan.withinNext < scan.withinCount) {
			const end = Math.min(scan.withinCount, scan.withinNext + scanStride);
			for (let at = scan.withinNext; at < end; at++) test(within[at]!);
			scan.tested += end - scan.withinNext;
			scan.withinNext = end;
			if (scan.withinNext < scan.withinCount && stop()) return false;
		}
	}

	const fromStart = !within && scan.next === 0;
	while (scan.next < activities.length) {
		let index = scan.next;
		const end = Math.min(activities.length, index + scanStride);
		// The common case, texts all checked and no filter, reads one array in order and nothing else.
		if (!include && short) for (const until = Math.min(end, sure); index < until; index++) if (known[index]!.includes(needle)) matches.push(index);
		for (; index < end; index++) test(index);
		scan.tested += end - scan.next;
		scan.next = end;
		if (scan.next < activities.length && stop()) return false;
	}

	// A scan of every activity in one revision checked every text it kept.
	if (fromStart && scan.rev === model.rev) markSure(texts, model);
	scan.done = true;
	return true;
}

/** Indices (into `model.activities`, ascending, i.e. arrival order) of the activities whose text holds `query`, ignoring case. */
export function findMatches(model: Model, query: string, options: FindOptions = {}): number[] {
	const {include, within} = options;
	const scan = startScan(model, query, {...(include ? {include} : {}), ...(within ? {within: {matches: within, end: model.activities.length}} : {})});
	continueScan(model, scan);
	return scan.matches;
}

/**
 * Whether matches for `next` can be searched within the matches for `previous` (see `FindOptions.within`):
 * true when `next` holds `previous`. Results that arrived in between are not in the old matches, so only
 * use it while the model has not changed.
 */
export function narrows(previous: string, next: string): boolean {
	const old = foldCase(previous);
	return old !== '' && includesText(foldCase(next), old);
}

/**
 * Where `query` occurs in a displayed line, ignoring case, as `[start, end)` ranges of UTF-16 code units,
 * left to right and never overlapping. The line is the already sanitised string that is drawn.
 */
export function highlightRanges(line: string, query: string): Array<[number, number]> {
	// Folding keeps lengths: a query longer than the line is told before folding it (a pasted one, every row).
	if (query === '' || line.length < query.length) return [];
	const needle = foldCase(query);
	const haystack = foldCase(line);
	const ranges: Array<[number, number]> = [];
	const finder = new Needle(needle);
	let from = finder.indexIn(haystack);
	while (from !== -1) {
		ranges.push([from, from + needle.length]);
		from = finder.indexIn(haystack, from + needle.length);
	}

	return ranges;
}

/**
 * The match `n` (+1) or `N` (-1) jumps to from `current`, wrapping around at either end. `matches` must be
 * ascending in the order the jumps follow: activity indices (arrival order) as `findMatches` returns them,
 * or row positions if the caller maps them onto the screen's order. `current` need not be a match itself.
 * Undefined when there is no match.
 */
export function stepMatch(matches: readonly number[], current: number | undefined, direction: 1 | -1): number | undefined {
	if (matches.length === 0) return undefined;
	if (current === undefined) return direction === 1 ? matches[0] : matches[matches.length - 1];
	// First position whose match is after `current`.
	let low = 0;
	let high = matches.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (matches[middle]! <= current) low = middle + 1;
		else high = middle;
	}

	if (direction === 1) return matches[low] ?? matches[0];
	const before = matches[low - 1] === current ? low - 2 : low - 1;
	return before >= 0 ? matches[before] : matches[matches.length - 1];
}

/**
 * The match `n` (+1) or `N` (-1) jumps to from `current`, as `stepMatch`, for a scan that may not be done:
 * `'wait'` when the scan has not yet got far enough to know it. Known early when it is ahead of `current`
 * among the matches found so far (they are the first ones, and every activity below `scanCovered` is decided);
 * a jump that wraps round, or `N` past where the scan has got to, waits for the end.
 */
export function stepKnown(scan: MatchScan, current: number | undefined, direction: 1 | -1): number | undefined | 'wait' {
	const {matches} = scan;
	if (scan.done) return stepMatch(matches, current, direction);
	if (direction === 1) {
		const target = stepMatch(matches, current, 1);
		return target !== undefined && (current === undefined || target > current) ? target : 'wait';
	}

	if (current === undefined || scanCovered(scan) < current) return 'wait';
	const target = stepMatch(matches, current, -1);
	return target !== undefined && target < current ? target : 'wait';
}
