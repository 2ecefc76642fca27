import stringWidth from 'string-width';

/*
 * Column arithmetic for sanitised text. Ink lays out with string-width, so every width here is
 * exactly what string-width would say; measuring any other way would let our truncation disagree
 * with Ink's wrapping by a column and wrap the line.
 *
 * `countAnsiEscapeCodes: true` because these helpers never see styling: colour comes from Ink props,
 * and sanitised text has no ESC. If unsanitised text slips through, counting the escape's printable
 * bytes is the honest answer (it is what a sanitiser would show), and it keeps the width of a string
 * equal to the sum of the widths of its pieces, which everything below relies on.
 *
 * string-width and Intl.Segmenter are slow per call (creating a segment iterator costs microseconds),
 * and these functions run for every visible cell on every frame. So text is cut into printable-ASCII
 * runs, which need no segmentation because two printable ASCII characters never share a grapheme
 * cluster, and "islands" of everything else, which are measured once and cached.
 */
const widthOptions = {countAnsiEscapeCodes: true} as const;

const segmenter = new Intl.Segmenter(undefined, {granularity: 'grapheme'});

const printableAscii = /^[\u0020-\u007E]*$/;

/*
 * A run of non-ASCII text plus the ASCII character on each side of it (a combining mark or a Prepend
 * character can share a cluster with its ASCII neighbour). Runs separated by a single ASCII character
 * are one island, because that character might belong to either. Between islands there are at least
 * two ASCII characters, so an island always starts and ends on a grapheme boundary of the whole text.
 */
const islandPattern = /[\u0020-\u007E]?[^\u0020-\u007E]+(?:[\u0020-\u007E][^\u0020-\u007E]+)*[\u0020-\u007E]?/g;

/*
 * Characters that can share a grapheme cluster with a neighbour (grapheme break classes Extend, ZWJ,
 * SpacingMark, Prepend, Regional_Indicator and the Hangul jamo L, V, T), plus controls and formats,
 * which are cheap to send the slow way. An island without any of these is one cluster per code point.
 * JavaScript regexes cannot name Grapheme_Cluster_Break values, so Prepend and the non-mark
 * SpacingMark letters are listed; a test checks the list against the runtime's segmenter.
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

const ellipsis = '…';

/*
 * Caches are bounded by clearing: the working set (the scripts and emoji a run actually uses) is
 * small and refills at once, and a clear is cheaper than LRU bookkeeping on every lookup.
 */
const cacheLimit = 4096;
const cacheableLength = 64;
const codePointWidths = new Map<number, number>();
const islandWidths = new Map<string, number>();

function codePointWidth(codePoint: number): number {
	if (codePoint >= 0x20 && codePoint <= 0x7e) {
		return 1;
	}

	let width = codePointWidths.get(codePoint);
	if (width === undefined) {
		width = stringWidth(String.fromCodePoint(codePoint), widthOptions);
		if (codePointWidths.size >= cacheLimit) {
			codePointWidths.clear();
		}

		codePointWidths.set(codePoint, width);
	}

	return width;
}

function measureIsland(island: string): number {
	if (joinerPattern.test(island)) {
		return stringWidth(island, widthOptions);
	}

	let width = 0;
	for (const character of island) {
		width += codePointWidth(character.codePointAt(0)!);
	}

	return width;
}

function islandWidth(island: string): number {
	if (island.length > cacheableLength) {
		return measureIsland(island);
	}

	let width = islandWidths.get(island);
	if (width === undefined) {
		width = measureIsland(island);
		if (islandWidths.size >= cacheLimit) {
			islandWidths.clear();
		}

		islandWidths.set(island, width);
	}

	return width;
}

/*
 * Calls `visit(end, width)` for each grapheme cluster of an island, `end` relative to the island.
 * Stops early when `visit` returns false.
 */
function eachIslandCluster(island: string, visit: (end: number, width: number) => boolean): void {
	if (joinerPattern.test(island)) {
		for (const {segment, index} of segmenter.segment(island)) {
			if (!visit(index + segment.length, stringWidth(segment, widthOptions))) {
				return;
			}
		}

		return;
	}

	let end = 0;
	for (const character of island) {
		end += character.length;
		if (!visit(end, codePointWidth(character.codePointAt(0)!))) {
			return;
		}
	}
}

/*
 * Calls `visit(end, width)` for each grapheme cluster of `text`, in order, with `end` the offset just
 * past the cluster. Stops early when `visit` returns false.
 */
function eachCluster(text: string, visit: (end: number, width: number) => boolean): void {
	let position = 0;
	for (const match of text.matchAll(islandPattern)) {
		for (; position < match.index; position++) {
			if (!visit(position + 1, 1)) {
				return;
			}
		}

		const start = position;
		let stopped = false;
		eachIslandCluster(match[0], (end, width) => {
			stopped = !visit(start + end, width);
			return !stopped;
		});
		if (stopped) {
			return;
		}

		position = start + match[0].length;
	}

	for (; position < text.length; position++) {
		if (!visit(position + 1, 1)) {
			return;
		}
	}
}

/** Columns the text occupies in a terminal (wide CJK and emoji count 2, combining marks 0). */
export function displayWidth(text: string): number {
	if (printableAscii.test(text)) {
		return text.length;
	}

	let ascii = text.length;
	let width = 0;
	for (const match of text.matchAll(islandPattern)) {
		ascii -= match[0].length;
		width += islandWidth(match[0]);
	}

	return ascii + width;
}

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
	eachCluster(text, (end, clusterWidth) => {
		used += clusterWidth;
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

	const ascii = printableAscii.test(text);
	if (ascii ? text.length <= columns : surelyFits(text, columns) || displayWidth(text) <= columns) {
		return text;
	}

	const room = columns - 1;
	const tailRoom = Math.ceil(room / 2);
	if (ascii) {
		const headRoom = room - tailRoom;
		return text.slice(0, headRoom) + ellipsis + (tailRoom > 0 ? text.slice(-tailRoom) : '');
	}

	// Paths are short, so listing every cluster is cheaper than being clever about walking backwards.
	const ends: number[] = [];
	const widths: number[] = [];
	eachCluster(text, (end, clusterWidth) => {
		ends.push(end);
		widths.push(clusterWidth);
		return true;
	});

	let tailStart = text.length;
	let tailUsed = 0;
	for (let cluster = ends.length - 1; cluster >= 0; cluster--) {
		const clusterWidth = widths[cluster]!;
		if (tailUsed + clusterWidth > tailRoom) {
			break;
		}

		tailUsed += clusterWidth;
		tailStart = cluster === 0 ? 0 : ends[cluster - 1]!;
	}

	// The head may use whatever the tail could not, e.g. when a wide cluster did not fit there.
	// Head and tail cannot overlap: together they are narrower than the whole text.
	const headRoom = room - tailUsed;
	let headEnd = 0;
	let headUsed = 0;
	for (let cluster = 0; cluster < ends.length; cluster++) {
		const clusterWidth = widths[cluster]!;
		if (headUsed + clusterWidth > headRoom) {
			break;
		}

		headUsed += clusterWidth;
		headEnd = ends[cluster]!;
	}

	return text.slice(0, headEnd) + ' '.repeat(headRoom - headUsed) + ellipsis + text.slice(tailStart);
}
