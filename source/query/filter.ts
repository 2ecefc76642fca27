import {sanitizeLine} from '../text/sanitize.js';
import {activityText, textReader, foldCase} from './search.js';
import {includesText} from './find-text.js';
import {activityTypes, type Activity, type ActivityType, type Model} from '../model/state.js';
import {assertNever} from '../model/assert-never.js';
import {endedRunMarks} from './ended-marks.js';
import {changedSince, markActivities, type ActivitiesMark} from './activity-changes.js';

/*
 * The filter language, shared by `--filter` and the viewer's filter key. Terms are separated by spaces
 * and must all hold (AND); `-` before a term negates it:
 *
 *   type:exec,readTextFile   activity type, any of the listed
 *   expert:helper-1          expert key, any of a comma-separated list (ignoring case; the version and the scope may be left out)
 *   run:k3f9                 run id prefix (the first run of a pane names the whole pane)
 *   errors                   error activities, and tool calls or delegations whose result is an error; once
 *                            the input has ended, where runs ended without a final event or while waiting
 *                            (`endedRunMarks`)
 *   step:7  step:10-20       step number or inclusive range; `step:10-` and `step:-20` are open-ended
 *   vitest  "two words"      free text, anywhere in the activity's searchable text, ignoring case
 *
 * A word shaped like `key:value` with a key that is not one of these is an error rather than free text,
 * so a typo (`tpye:exec`) is reported instead of silently matching nothing; quote it to search for it.
 */

export type FilterTerm =
	| {kind: 'type'; types: ActivityType[]}
	/** `folded`: the same keys folded to lower case, so matching does not fold them again per activity. */
	| {kind: 'expert'; experts: string[]; folded: string[]}
	| {kind: 'run'; prefix: string}
	| {kind: 'errors'}
	| {kind: 'step'; from: number | undefined; to: number | undefined}
	| {kind: 'text'; text: string; folded: string};

export type FilterClause = {term: FilterTerm; negated: boolean};

/** Clauses that must all hold. No clauses: everything is shown. */
export type Filter = {clauses: FilterClause[]};

export type ParsedFilter = {ok: true; filter: Filter} | {ok: false; error: string};

export const emptyFilter: Filter = {clauses: []};

const keys = ['type', 'expert', 'run', 'step'] as const;

/**
 * The names an expert key answers to: the whole key (`@scope/writer@1.2.0`), and that key without its version
 * (`@scope/writer`), without its scope (`writer@1.2.0`), or without both (`writer`).
 */
export function expertNames(key: string): string[] {
	const unversioned = key.replace(/(?<=.)@[^@/]*$/, '');
	const names = [key, unversioned];
	for (const name of [key, unversioned]) {
		const slash = name.indexOf('/');
		if (name.startsWith('@') && slash !== -1) names.push(name.slice(slash + 1));
	}

	return names;
}
type Key = (typeof keys)[number];

function isKey(word: string): word is Key {
	return keys.some(key => key === word);
}

class FilterSyntaxError extends Error {}

type Token = {
	negated: boolean;
	/** Set when the word starts with an unquoted `key:`. */
	key: string | undefined;
	value: string;
	/** Any part of the value was quoted: it is literal text, never the `errors` keyword. */
	quoted: boolean;
};

export function parseFilter(text: string): ParsedFilter {
	try {
		return {ok: true, filter: {clauses: tokenize(text).map(token => clauseOf(token))}};
	} catch (error) {
		if (error instanceof FilterSyntaxError) return {ok: false, error: error.message};
		throw error;
	}
}

function isSpace(char: string): boolean {
	return char === ' ' || char === '\t' || char === '\n' || char === '\r';
}

function tokenize(text: string): Token[] {
	const tokens: Token[] = [];
	let i = 0;
	while (i < text.length) {
		if (isSpace(text[i]!)) {
			i++;
			continue;
		}

		const negated = text[i] === '-';
		if (negated) i++;
		let value = '';
		let quoted = false;
		let key: string | undefined;
		while (i < text.length && !isSpace(text[i]!)) {
			const char = text[i]!;
			if (char === '"') {
				const end = readQuoted(text, i + 1);
				value += end.text;
				quoted = true;
				i = end.next;
				continue;
			}

			// The key is what precedes the first colon, if nothing before it was quoted.
			if (char === ':' && key === undefined && !quoted && /^[A-Za-z][\w-]*$/.test(value)) {
				key = value.toLowerCase();
				value = '';
				i++;
				continue;
			}

			value += char;
			i++;
		}

		if (negated && key === undefined && value === '' && !quoted) throw new FilterSyntaxError('a lone "-" negates nothing: write -term, e.g. -type:todo');
		tokens.push({negated, key, value, quoted});
	}

	return tokens;
}

/** Reads a quoted string whose opening quote is just before `from`; `\"` and `\\` are escapes. */
function readQuoted(text: string, from: number): {text: string; next: number} {
	let out = '';
	let i = from;
	while (i < text.length) {
		const char = text[i]!;
		if (char === '"') return {text: out, next: i + 1};
		if (char === '\\' && i + 1 < text.length) {
			out += text[i + 1];
			i += 2;
			continue;
		}

		out += char;
		i++;
	}

	throw new FilterSyntaxError('unclosed quote: a quoted text needs its closing "');
}

function clauseOf(token: Token): FilterClause {
	return {term: termOf(token), negated: token.negated};
}

function termOf(token: Token): FilterTerm {
	const {key, value} = token;
	if (key === undefined) {
		if (!token.quoted && value.toLowerCase() === 'errors') return {kind: 'errors'};
		if (value === '') throw new FilterSyntaxError('"" is empty: put some text between the quotes');
		return {kind: 'text', text: value, folded: foldCase(value)};
	}

	if (!isKey(key)) {
		throw new FilterSyntaxError(
			`unknown filter "${key}:" (known: ${keys.map(name => `${name}:`).join(', ')} and errors); to search for the text, quote it: "${key}:${value}"`,
		);
	}

	if (value === '') throw new FilterSyntaxError(`"${key}:" needs a value, e.g. ${example(key)}`);
	switch (key) {
		case 'type':
			return {kind: 'type', types: list(key, value).map(name => typeNamed(name))};
		case 'expert': {
			const experts = list(key, value);
			return {kind: 'expert', experts, folded: experts.map(foldCase)};
		}

		case 'run':
			return {kind: 'run', prefix: value};
		case 'step':
			return stepTerm(value);
		default:
			return assertNever(key);
	}
}

function example(key: Key): string {
	switch (key) {
		case 'type':
			return 'type:exec,readTextFile';
		case 'expert':
			return 'expert:helper-1';
		case 'run':
			return 'run:k3f9';
		case 'step':
			return 'step:7 or step:10-20';
		default:
			return assertNever(key);
	}
}

function list(key: Key, value: string): string[] {
	const items = value.split(',');
	if (items.some(item => item === ''))
		throw new FilterSyntaxError(`"${key}:${value}" has an empty item: separate values with single commas, e.g. ${example(key)}`);
	return items;
}

function typeNamed(name: string): ActivityType {
	const wanted = name.toLowerCase();
	const found = activityTypes.find(type => type.toLowerCase() === wanted);
	if (found === undefined) throw new FilterSyntaxError(`unknown activity type "${name}" (known: ${activityTypes.join(', ')})`);
	return found;
}

function stepTerm(value: string): FilterTerm {
	const match = /^(\d+)?(-(\d+)?)?$/.exec(value);
	const fromText = match?.[1];
	const toText = match?.[3];
	const ranged = match?.[2] !== undefined;
	if (!match || (fromText === undefined && toText === undefined)) {
		throw new FilterSyntaxError(`"step:${value}" is not a step or a range: use step:7, step:10-20, step:10- or step:-20`);
	}

	const from = fromText === undefined ? undefined : Number(fromText);
	const to = ranged ? (toText === undefined ? undefined : Number(toText)) : from;
	if (from !== undefined && to !== undefined && from > to) throw new FilterSyntaxError(`"step:${value}" runs backwards: write step:${to}-${from}`);
	return {kind: 'step', from, to};
}

/** Whether an activity is shown under the filter. `model` is needed to see which pane a run belongs to. */
export function matches(filter: Filter, activity: Activity, model: Model): boolean {
	return matchesAt(filter, activity, model, -1, undefined);
}

/** `textOf`: the model's texts by index (`textReader`), for a pass over every activity; `index` is the activity's. */
function matchesAt(filter: Filter, activity: Activity, model: Model, index: number, textOf: ((index: number) => string) | undefined): boolean {
	for (const clause of filter.clauses) if (termMatches(clause.term, activity, model, index, textOf) === clause.negated) return false;
	return true;
}

function termMatches(term: FilterTerm, activity: Activity, model: Model, index: number, textOf: ((index: number) => string) | undefined): boolean {
	switch (term.kind) {
		case 'type':
			return term.types.includes(activity.type);
		case 'expert':
			return expertNames(foldCase(activity.expertKey)).some(name => term.folded.includes(name));
		case 'run':
			return activity.runId.startsWith(term.prefix) || (model.runs.get(activity.runId)?.paneId.startsWith(term.prefix) ?? false);
		case 'errors':
			return isErrorActivity(activity) || (model.inputEnd !== undefined && endedRunMarks(model).has(activity.id));
		case 'step':
			return activity.step !== undefined && (term.from === undefined || activity.step >= term.from) && (term.to === undefined || activity.step <= term.to);
		case 'text':
			return includesText(textOf ? textOf(index) : activityText(activity), term.folded);
		default:
			return assertNever(term);
	}
}

/** An error activity, or a tool call or delegation whose result is an error. */
export function isErrorActivity(activity: Activity): boolean {
	if (activity.type === 'error') return true;
	return 'result' in activity && activity.result?.error !== undefined;
}

export type FilterMatches = {
	/** By activity index: 1 when the filter shows the activity. */
	readonly shown: Uint8Array;
	readonly shownCount: number;
};

/**
 * Which activities the filter shows, worked out once per model revision and filter, however many views ask
 * (the tree, the header's hidden count, the search): each asking again over a million activities made a
 * filter keystroke cost several passes over the log.
 */
/** By the activities array: a shallow copy of the model (a load in a worker moving its event count) shares it. */
// eslint-disable-next-line no-restricted-syntax -- a side table of the model's own derived data, keyed by its activities array and dying with it: model/ may not hold query/'s types (docs/architecture.md)
const matchSets = new WeakMap<Model['activities'], MatchSet[]>();

/**
 * Filters whose matches are kept per activities array, the last used first: a filter applied again later (the
 * errors key's, a filter typed again) carries on from its matches of then rather than testing every activity.
 */
const keptFilters = 4;

/**
 * A filter's matches for one model revision. `text`: the filter's canonical text, which names it (a filter typed
 * again is another object). `mark`: the activities they were worked out from, where the model grows in place (a
 * live stream read on this thread: the same activities array at a later revision), so that a later revision's
 * matches carry on from these (`carriedScan`).
 */
type MatchSet = {rev: number; text: string; matches: FilterMatches; mark: ActivitiesMark | undefined};

/**
 * Whether the filter's answer for an activity depends on the activity object alone, so that an activity still the
 * same object at a later revision keeps its answer (activities are never changed in place: a change puts a new
 * object in its slot, model/reduce/activities.ts). Not so for `run:` (a run joins another's pane) nor for
 * `errors` once the input has ended (the runs it left unfinished are marked then).
 */
function carriesOver(filter: Filter, model: Model): boolean {
	return model.inputEnd === undefined && filter.clauses.every(clause => clause.term.kind !== 'run');
}

function keptSet(model: Model, filter: Filter): MatchSet | undefined {
	const text = filterText(filter);
	return matchSets.get(model.activities)?.find(set => set.text === text);
}

/**
 * A scan of this model revision that starts from the filter's matches of an earlier revision of the same
 * activities array: only the slots whose activity changed since are tested again (query/activity-changes.ts),
 * then the activities added since. Each frame of a live stream laid out a filtered tree from a scan of every
 * activity, and each filter's Enter and `x` scanned them all again.
 */
function carriedScan(model: Model, filter: Filter): FilterScan | undefined {
	const known = keptSet(model, filter);
	if (!known?.mark || !carriesOver(filter, model) || known.matches.shown.length !== known.mark.length) return undefined;
	const changed = changedSince(model, known.mark);
	if (!changed) return undefined;
	const {activities} = model;
	const {length} = known.mark;
	const shown = new Uint8Array(activities.length);
	shown.set(known.matches.shown);
	let shownCount = known.matches.shownCount;
	const textOf = filter.clauses.some(clause => clause.term.kind === 'text') ? textReader(model) : undefined;
	for (const index of changed) {
		const now = matchesAt(filter, activities[index]!, model, index, textOf) ? 1 : 0;
		shownCount += now - shown[index]!;
		shown[index] = now;
	}

	return {filter, activities, rev: model.rev, shown, shownCount, next: length, matches: undefined};
}

function knownMatches(model: Model, filter: Filter): FilterMatches | undefined {
	const known = keptSet(model, filter);
	if (known && known.rev === model.rev && known.matches.shown.length === model.activities.length) return known.matches;
	return undefined;
}

export function filterMatches(model: Model, filter: Filter): FilterMatches {
	const known = knownMatches(model, filter);
	if (known) return known;
	const scan = startFilterScan(model, filter);
	continueFilterScan(model, scan);
	return scan.matches!;
}

/**
 * A filter's bitmap that can stop and go on (`continueFilterScan`), so that a filter's Enter over a million
 * activities is worked through in short slices between keys. It is for one model revision: asked to go on
 * with another (the model grew, or a load posted a new one), it starts over, since an activity already
 * decided may have changed (a call's result arriving makes it an error). So what it ends with is always
 * exactly `filterMatches` of the model it ends on.
 */
export type FilterScan = {
	readonly filter: Filter;
	activities: Model['activities'];
	rev: number;
	shown: Uint8Array;
	shownCount: number;
	/** The next activity index to test. */
	next: number;
	/** Set when done: the bitmap, also what `filterMatches` returns for that model revision from then on. */
	matches: FilterMatches | undefined;
};

/** Activities tested between two asks whether to stop: the clock is not read per activity. */
const stopStride = 512;

export function startFilterScan(model: Model, filter: Filter): FilterScan {
	const matches = knownMatches(model, filter);
	const carried = matches ? undefined : carriedScan(model, filter);
	if (carried) return carried;
	return {
		filter,
		activities: model.activities,
		rev: model.rev,
		shown: matches?.shown ?? new Uint8Array(model.activities.length),
		shownCount: matches?.shownCount ?? 0,
		next: matches ? model.activities.length : 0,
		matches,
	};
}

/** Whether the scan has its result for this model revision. */
export function filterScanDone(model: Model, scan: FilterScan): boolean {
	return scan.matches !== undefined && scan.activities === model.activities && scan.rev === model.rev && scan.shown.length === model.activities.length;
}

/** How far the scan has got, 0 to 1. */
export function filterScanShare(scan: FilterScan): number {
	const total = scan.shown.length;
	return total === 0 ? 1 : Math.min(1, scan.next / total);
}

/**
 * Tests activities until the scan is done (true) or `stop` says so (asked every few hundred activities).
 * A scan of an earlier model revision starts over on this one.
 */
export function continueFilterScan(model: Model, scan: FilterScan, stop: () => boolean = () => false): boolean {
	if (filterScanDone(model, scan)) return true;
	const {activities} = model;
	if (scan.activities !== activities || scan.rev !== model.rev || scan.shown.length !== activities.length) {
		const started = startFilterScan(model, scan.filter);
		scan.activities = activities;
		scan.rev = model.rev;
		scan.shown = started.shown;
		scan.shownCount = started.shownCount;
		scan.next = started.next;
		scan.matches = started.matches;
		if (started.matches) return true;
	}

	const {filter, shown} = scan;
	// Text terms read the search's texts by index: made ahead on idle time, and no lookup by activity each.
	const textOf = filter.clauses.some(clause => clause.term.kind === 'text') ? textReader(model) : undefined;
	let index = scan.next;
	let shownCount = scan.shownCount;
	while (index < activities.length) {
		const end = Math.min(activities.length, index + stopStride);
		for (; index < end; index++) {
			if (!matchesAt(filter, activities[index]!, model, index, textOf)) continue;
			shown[index] = 1;
			shownCount++;
		}

		// Where it has got is told before asking: `stop` may look at it.
		scan.next = index;
		scan.shownCount = shownCount;
		if (index < activities.length && stop()) break;
	}

	scan.next = index;
	scan.shownCount = shownCount;
	if (index < activities.length) return false;
	const result = {shown, shownCount};
	scan.matches = result;
	keepMatches(model, filter, result);
	return true;
}

/** Keeps a filter's matches of this model revision, first among the array's, with a mark to carry on from. */
function keepMatches(model: Model, filter: Filter, matches: FilterMatches): void {
	const text = filterText(filter);
	const mark = carriesOver(filter, model) ? markActivities(model) : undefined;
	const others = (matchSets.get(model.activities) ?? []).filter(set => set.text !== text);
	matchSets.set(model.activities, [{rev: model.rev, text, matches, mark}, ...others].slice(0, keptFilters));
}

export function isEmptyFilter(filter: Filter): boolean {
	return filter.clauses.length === 0;
}

/** The `x` key: adds `errors` to the filter, or takes it out when it is there. */
export function toggleErrors(filter: Filter): Filter {
	const without = filter.clauses.filter(clause => !(clause.term.kind === 'errors' && !clause.negated));
	if (without.length !== filter.clauses.length) return {clauses: without};
	return {clauses: [...filter.clauses, {term: {kind: 'errors'}, negated: false}]};
}

/** Whether the filter asks for errors only (what the `x` key toggles). */
export function showsErrorsOnly(filter: Filter): boolean {
	return filter.clauses.some(clause => clause.term.kind === 'errors' && !clause.negated);
}

/**
 * The filter written out in its canonical form, which `parseFilter` reads back to the same filter: what
 * to put in an edit field. Not sanitised: for display use `describeFilter`.
 */
export function filterText(filter: Filter): string {
	return filter.clauses.map(clause => `${clause.negated ? '-' : ''}${termText(clause.term)}`).join(' ');
}

/** The filter for the header: canonical and safe to write to a terminal. Empty for no filter. */
export function describeFilter(filter: Filter): string {
	return sanitizeLine(filterText(filter));
}

function termText(term: FilterTerm): string {
	switch (term.kind) {
		case 'type':
			return `type:${term.types.join(',')}`;
		case 'expert':
			return `expert:${term.experts.map(expert => literal(expert, false)).join(',')}`;
		case 'run':
			return `run:${literal(term.prefix, false)}`;
		case 'errors':
			return 'errors';
		case 'step':
			if (term.from === term.to) return `step:${term.from ?? ''}`;
			return `step:${term.from ?? ''}-${term.to ?? ''}`;
		case 'text':
			return literal(term.text, true);
		default:
			return assertNever(term);
	}
}

/** A value as the tokenizer reads it back: bare when nothing in it means something, quoted otherwise. */
function literal(text: string, freeText: boolean): string {
	const special = /[\s"\\]/.test(text);
	const ambiguous = freeText && (text.startsWith('-') || text.toLowerCase() === 'errors' || /^[A-Za-z][\w-]*:/.test(text));
	if (!special && !ambiguous && text !== '') return text;
	return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}
