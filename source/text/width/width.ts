import {lazily} from '../../model/lazily.js';
import {clusterColumns} from './cluster-width.js';

/*
 * Column arithmetic for sanitised text. Ink lays out with string-width (in the viewer's bundle, with
 * ink-string-width.ts, which measures with this), so every width here is exactly what string-width
 * would say; measuring any other way would let our truncation disagree with Ink's wrapping by a column
 * and wrap the line. A cluster is measured by string-width's rules (cluster-width.ts), and the test
 * holds the two equal on any text.
 *
 * Escape sequences count as what they show (string-width's `countAnsiEscapeCodes: true`) because these
 * helpers never see styling: colour comes from Ink props,
 * and sanitised text has no ESC. If unsanitised text slips through, counting the escape's printable
 * bytes is the honest answer (it is what a sanitiser would show), and it keeps the width of a string
 * equal to the sum of the widths of its grapheme clusters, which everything below relies on.
 *
 * Why not just call string-width: it runs Intl.Segmenter over the whole string, each segmenter call
 * costs microseconds, and in Node 20 each segment the iterator yields copies the whole input, so
 * segmenting is quadratic (40,000 accented letters take seconds). Untrusted text can be that long,
 * and these functions run for every visible cell on every frame. So most characters are measured
 * one code point at a time from a table, and the segmenter only ever sees short windows of the few
 * places that need it.
 */
/** Made when first needed: a segmenter costs ~9 ms to make, and most text never needs one. */
const segmenter = lazily(() => new Intl.Segmenter(undefined, {granularity: 'grapheme'}));

const printableAscii = /^[\u0020-\u007E]*$/;

/*
 * Characters that can share a grapheme cluster with a neighbour (grapheme break classes Extend, ZWJ,
 * SpacingMark, Prepend, Regional_Indicator and the Hangul jamo L, V, T), plus controls, formats and
 * surrogates, which are rare enough to send the slow way. Any other character is a cluster of its
 * own, so between two such characters there is always a boundary.
 * JavaScript regexes cannot name Grapheme_Cluster_Break values, so Prepend and the non-mark
 * SpacingMark letters are listed by hand; a test checks the class against the runtime's segmenter.
 */
const joinerPattern = new RegExp(
	'[\\p{M}\\p{Grapheme_Extend}\\p{Emoji_Modifier}\\p{Regional_Indicator}\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}' +
		'\\u1100-\\u11FF\\uA960-\\uA97F\\uD7B0-\\uD7FF\\u0D4E\\u0E33\\u0EB3\\u{111C2}\\u{111C3}\\u{113D1}' +
		'\\u{1193F}\\u{11941}\\u{11A3A}\\u{11A84}-\\u{11A89}\\u{11D46}\\u{11F02}\\u{16D63}\\u{16D67}-\\u{16D6A}]',
	'u',
);

/**
 * True when `character` (one code point) always forms a grapheme cluster on its own. Exported so a
 * test can pin the hand-written part of this rule to the runtime's Unicode version.
 */
export function formsOwnCluster(character: string): boolean {
	return !joinerPattern.test(character);
}

/*
 * What a code point is, filled in on first sight: 0 unknown, `joiner`, or 1 + its width when it is
 * a cluster of its own. A table for the BMP because a lookup there is a single load, which matters
 * for CJK text; a map for the rest, which is mostly emoji.
 */
const unknown = 0;
const joiner = 4;
const bmpKinds = new Uint8Array(0x1_00_00);
bmpKinds.fill(2, 0x20, 0x7f);
// eslint-disable-next-line no-restricted-syntax -- a per-process cache of a pure function: Ink measures text by a module function (ink-string-width.ts), so there is no owner to hand a cache to (docs/architecture.md)
const astralKinds = new Map<number, number>();

/*
 * Caches are bounded by clearing: the working set (the scripts and emoji a run actually uses) is
 * small and refills at once, and a clear is cheaper than LRU bookkeeping on every lookup.
 */
const cacheLimit = 4096;
const cacheableLength = 64;
// eslint-disable-next-line no-restricted-syntax -- a per-process cache of a pure function: Ink measures text by a module function (ink-string-width.ts), so there is no owner to hand a cache to (docs/architecture.md)
const clusterWidths = new Map<string, number>();
/** Short islands seen before, as [total width, end of cluster 1, its width, end of cluster 2, …]. */
// eslint-disable-next-line no-restricted-syntax -- a per-process cache of a pure function: Ink measures text by a module function (ink-string-width.ts), so there is no owner to hand a cache to (docs/architecture.md)
const islandLayouts = new Map<string, number[]>();

function remember<K, V>(cache: Map<K, V>, key: K, value: V): V {
	if (cache.size >= cacheLimit) {
		cache.clear();
	}

	cache.set(key, value);
	return value;
}

function classify(codePoint: number): number {
	const character = String.fromCodePoint(codePoint);
	return joinerPattern.test(character) ? joiner : 1 + clusterColumns(character);
}

function kindOf(codePoint: number): number {
	if (codePoint > 0xff_ff) {
		return astralKinds.get(codePoint) ?? remember(astralKinds, codePoint, classify(codePoint));
	}

	let kind = bmpKinds[codePoint]!;
	if (kind === unknown) {
		kind = classify(codePoint);
		bmpKinds[codePoint] = kind;
	}

	return kind;
}

function clusterWidth(cluster: string): number {
	if (cluster.length > cacheableLength) {
		// One long cluster (a letter under thousands of marks): measured in one pass, and not kept.
		return clusterColumns(cluster);
	}

	return clusterWidths.get(cluster) ?? remember(clusterWidths, cluster, clusterColumns(cluster));
}

const windowLength = 256;

/*
 * Calls `visit(end, width)` for each cluster of text[start, end), which must begin and end on
 * cluster boundaries. The text is segmented a window at a time to keep the segmenter's cost linear:
 * every cluster in a window but the last is certainly complete (whether there is a break depends
 * only on what precedes it and the next character), and the next window starts where that last
 * cluster did. Returns false as soon as `visit` does.
 */
function eachWindowedCluster(text: string, start: number, end: number, visit: Visit): boolean {
	let position = start;
	let length = windowLength;
	while (position < end) {
		const final = position + length >= end;
		const segments = [...segmenter().segment(text.slice(position, final ? end : position + length))];
		if (!final) {
			if (segments.length < 2) {
				// A single cluster longer than the window: look further, rather than cut it.
				length *= 2;
				continue;
			}

			segments.pop();
		}

		for (const {segment, index} of segments) {
			if (!visit(position + index + segment.length, clusterWidth(segment))) {
				return false;
			}
		}

		const last = segments.at(-1)!;
		position += last.index + last.segment.length;
		length = windowLength;
	}

	return true;
}

/*
 * The same islands come back again and again (an emoji with its variation selector, an accented
 * letter and the space after it), and a segmenter call costs far more than a map lookup.
 */
function layoutOf(island: string): number[] {
	let layout = islandLayouts.get(island);
	if (layout === undefined) {
		const built = [0];
		eachWindowedCluster(island, 0, island.length, (end, width) => {
			built[0]! += width;
			built.push(end, width);
			return true;
		});
		layout = remember(islandLayouts, island, built);
	}

	return layout;
}

/** Like `eachWindowedCluster`, from the cache when the stretch is short. */
function eachSegmentedCluster(text: string, start: number, end: number, visit: Visit): boolean {
	if (end - start > cacheableLength) {
		return eachWindowedCluster(text, start, end, visit);
	}

	const layout = layoutOf(text.slice(start, end));
	for (let index = 1; index < layout.length; index += 2) {
		if (!visit(start + layout[index]!, layout[index + 1]!)) {
			return false;
		}
	}

	return true;
}

/** Receives one grapheme cluster: the offset just past it and its width. False stops the walk. */
type Visit = (end: number, width: number) => boolean;
/** Receives text[start, end), a stretch that needs segmenting. False stops the walk. */
type VisitIsland = (start: number, end: number) => boolean;

function isJoinerAt(text: string, position: number): boolean {
	const code = text.charCodeAt(position);
	return !(code >= 0x20 && code <= 0x7e) && kindOf(text.codePointAt(position)!) === joiner;
}

function codePointLength(text: string, position: number): number {
	return text.codePointAt(position)! > 0xff_ff ? 2 : 1;
}

/*
 * Walks `text`, handing each code point that is a cluster of its own to `simple` and each "island"
 * to `island`. An island is a run of joiners plus the character on each side of it (either may share
 * a cluster with the run); runs separated by a single character are one island, because that
 * character might belong to either. Islands therefore start and end on grapheme boundaries.
 * A code point is held back one step, since a joiner right after it pulls it into an island.
 */
function scan(text: string, simple: Visit, island: VisitIsland): void {
	const length = text.length;
	let heldStart = -1;
	let heldWidth = 0;
	let position = 0;
	while (position < length) {
		const code = text.charCodeAt(position);
		let size = 1;
		let kind = 2;
		if (!(code >= 0x20 && code <= 0x7e)) {
			const codePoint = text.codePointAt(position)!;
			size = codePoint > 0xff_ff ? 2 : 1;
			kind = kindOf(codePoint);
		}

		if (kind !== joiner) {
			if (heldStart !== -1 && !simple(position, heldWidth)) {
				return;
			}

			heldStart = position;
			heldWidth = kind - 1;
			position += size;
			continue;
		}

		const start = heldStart === -1 ? position : heldStart;
		heldStart = -1;
		let end = position;
		for (;;) {
			while (end < length && isJoinerAt(text, end)) {
				end += codePointLength(text, end);
			}

			if (end >= length) {
				break;
			}

			end += codePointLength(text, end);
			if (end >= length || !isJoinerAt(text, end)) {
				break;
			}
		}

		if (!island(start, end)) {
			return;
		}

		position = end;
	}

	if (heldStart !== -1) {
		simple(length, heldWidth);
	}
}

/*
 * Calls `visit(end, width)` for each grapheme cluster of `text`, in order. Stops early when `visit`
 * returns false, so a caller that stops early pays only for what it looked at.
 */
function eachCluster(text: string, visit: Visit): void {
	scan(text, visit, (start, end) => eachSegmentedCluster(text, start, end, visit));
}

/**
 * Calls `visit(end, width)` for each grapheme cluster of `text`, in order, in time linear in the text
 * (a segmenter over a whole long line is quadratic in Node 20). Returning false stops the walk.
 */
export function forEachCluster(text: string, visit: (end: number, width: number) => boolean): void {
	eachCluster(text, visit);
}

function islandWidth(text: string, start: number, end: number): number {
	if (end - start <= cacheableLength) {
		return layoutOf(text.slice(start, end))[0]!;
	}

	let width = 0;
	eachWindowedCluster(text, start, end, (_end, columns) => {
		width += columns;
		return true;
	});
	return width;
}

/** Columns the text occupies in a terminal (wide CJK and emoji count 2, combining marks 0). */
export function displayWidth(text: string): number {
	if (printableAscii.test(text)) {
		return text.length;
	}

	let width = 0;
	scan(
		text,
		(_end, columns) => {
			width += columns;
			return true;
		},
		(start, end) => {
			width += islandWidth(text, start, end);
			return true;
		},
	);
	return width;
}

const ellipsis = '…';

/*
 * No cluster is wider than two columns per UTF-16 code unit it contains, so anything shorter than
 * half the limit fits without being measured; this keeps short cells in wide columns cheap.
 */
function surelyFits(text: string, width: number): boolean {
	return text.length * 2 <= width;
}

function normaliseWidth(width: number): number {
	// Negative, NaN and fractional widths come from layout arithmetic on tiny terminals; treat them
	// as "no room" or round down rather than throwing mid-render.
	return width > 0 ? Math.floor(width) : 0;
}

type Fitted = {text: string; width: number};

function fitEnd(text: string, width: number): Fitted {
	if (width === 0) {
		return {text: '', width: 0};
	}

	if (printableAscii.test(text)) {
		return text.length <= width ? {text, width: text.length} : {text: text.slice(0, width - 1) + ellipsis, width};
	}

	if (surelyFits(text, width)) {
		return {text, width: displayWidth(text)};
	}

	// Walk only until the limit is passed, so a megabyte-long line costs what fits on screen.
	const room = width - 1;
	let used = 0;
	let keepEnd = 0;
	let kept = 0;
	let cut = false;
	eachCluster(text, (end, columns) => {
		used += columns;
		if (used > width) {
			cut = true;
			return false;
		}

		if (used <= room) {
			keepEnd = end;
			kept = used;
		}

		return true;
	});

	if (!cut) {
		return {text, width: used};
	}

	// A wide cluster that would straddle the edge is dropped whole; the space keeps the result
	// exactly `width` columns so whatever is drawn to its right stays put.
	return {text: text.slice(0, keepEnd) + ' '.repeat(room - kept) + ellipsis, width};
}

/**
 * Cut `text` to at most `width` columns. When it is cut, the result ends with `…` and is exactly
 * `width` columns (a space stands in for a wide character that would not fit). Grapheme clusters
 * (emoji ZWJ sequences, flags, letters with combining marks) are never split.
 */
export function truncateEnd(text: string, width: number): string {
	return fitEnd(text, normaliseWidth(width)).text;
}

/** Truncate as `truncateEnd`, then pad with spaces to exactly `width` columns. */
export function padEnd(text: string, width: number): string {
	const columns = normaliseWidth(width);
	const fitted = fitEnd(text, columns);
	return fitted.width < columns ? fitted.text + ' '.repeat(columns - fitted.width) : fitted.text;
}

/**
 * Cut `text` to at most `width` columns by replacing its middle with `…`, for paths and keys whose
 * start and end both carry meaning. The tail gets the larger share because it holds the file name.
 * When cut, the result is exactly `width` columns; grapheme clusters are never split.
 */
export function truncateMiddle(text: string, width: number): string {
	const columns = normaliseWidth(width);
	if (columns === 0) {
		return '';
	}

	if (printableAscii.test(text)) {
		if (text.length <= columns) {
			return text;
		}

		const tailRoom = Math.ceil((columns - 1) / 2);
		return text.slice(0, columns - 1 - tailRoom) + ellipsis + (tailRoom > 0 ? text.slice(-tailRoom) : '');
	}

	if (surelyFits(text, columns)) {
		return text;
	}

	// Paths are short, so listing every cluster is simpler than segmenting backwards.
	const ends: number[] = [];
	const widths: number[] = [];
	let total = 0;
	eachCluster(text, (end, clusterColumns) => {
		ends.push(end);
		widths.push(clusterColumns);
		total += clusterColumns;
		return true;
	});
	if (total <= columns) {
		return text;
	}

	const room = columns - 1;
	const tailRoom = Math.ceil(room / 2);
	let tailStart = text.length;
	let tailUsed = 0;
	for (let cluster = ends.length - 1; cluster >= 0; cluster--) {
		const clusterColumns = widths[cluster]!;
		if (tailUsed + clusterColumns > tailRoom) {
			break;
		}

		tailUsed += clusterColumns;
		tailStart = cluster === 0 ? 0 : ends[cluster - 1]!;
	}

	// The head may use whatever the tail could not, e.g. when a wide cluster did not fit there.
	// Head and tail cannot overlap: together they are narrower than the whole text.
	const headRoom = room - tailUsed;
	let headEnd = 0;
	let headUsed = 0;
	for (let cluster = 0; cluster < ends.length; cluster++) {
		const clusterColumns = widths[cluster]!;
		if (headUsed + clusterColumns > headRoom) {
			break;
		}

		headUsed += clusterColumns;
		headEnd = ends[cluster]!;
	}

	return text.slice(0, headEnd) + ' '.repeat(headRoom - headUsed) + ellipsis + text.slice(tailStart);
}

/**
 * Cut a path to at most `width` columns in the middle, at slashes, so that its last segment (the file
 * name) survives whole: `src/…/because/it/is.ts`. The first segment stays when there is room for it,
 * then as many trailing segments as fit. A last segment too long on its own is cut in its middle.
 */
export function truncatePath(path: string, width: number): string {
	const columns = normaliseWidth(width);
	if (displayWidth(path) <= columns) return path;
	const segments = path.split('/');
	const last = segments.at(-1) ?? '';
	if (segments.length < 2 || displayWidth(last) + 2 > columns) return truncateMiddle(segments.length < 2 ? path : last, columns);
	const first = `${segments[0]!}/`;
	let tail = `/${last}`;
	let used = displayWidth(tail) + 1;
	const head = used + displayWidth(first) <= columns && segments.length > 2 ? first : '';
	used += displayWidth(head);
	for (let index = segments.length - 2; index >= (head === '' ? 0 : 1); index--) {
		const more = displayWidth(segments[index]!) + 1;
		if (used + more > columns) break;
		tail = `/${segments[index]!}${tail}`;
		used += more;
	}

	return `${head}${ellipsis}${tail}`;
}
