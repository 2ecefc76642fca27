import {Needle} from '../../query/find-text.js';
import {foldCase} from '../../query/search.js';
import type {InspectorLine} from './inspector-lines.js';

/*
 * `/` inside the inspector: where a query occurs in the lines the inspector shows, and moving between the
 * places. Pure, so the view only keeps the query and which match is current.
 */

/** One place the query occurs: the line, and where in its text (UTF-16 offsets, as `String.slice` takes). */
export type FindMatch = {line: number; start: number; end: number};

/** Every occurrence of `query` in `lines`, ignoring case, top to bottom; none for an empty query. */
export function findMatches(lines: readonly InspectorLine[], query: string): FindMatch[] {
	if (query === '') return [];
	// Folded as the tree's search folds (lengths kept, so offsets in the folded line are offsets in the drawn
	// one), and looked for in linear time: a regular expression of a pasted 20,000-character query took
	// seconds to build and overflowed the stack from there up (issue #34).
	const needle = foldCase(query);
	const finder = new Needle(needle);
	const matches: FindMatch[] = [];
	for (const [line, {text}] of lines.entries()) {
		if (text.length < needle.length) continue;
		const folded = foldCase(text);
		for (let at = finder.indexIn(folded); at !== -1; at = finder.indexIn(folded, at + needle.length)) matches.push({line, start: at, end: at + needle.length});
	}

	return matches;
}

/** The first match on or below line `from`, wrapping to the top: where an incremental search lands. */
export function firstMatchFrom(matches: readonly FindMatch[], from: number): number | undefined {
	if (matches.length === 0) return undefined;
	const index = matches.findIndex(match => match.line >= from);
	return index === -1 ? 0 : index;
}

/** The next (`1`) or previous (`-1`) match after `current`, wrapping round at either end. */
export function stepFind(count: number, current: number | undefined, direction: 1 | -1): number | undefined {
	if (count === 0) return undefined;
	if (current === undefined) return direction === 1 ? 0 : count - 1;
	return (((current + direction) % count) + count) % count;
}

/**
 * The scroll that shows line `line` in a window `height` lines high: unchanged when it is in sight already,
 * else with the line a third of the way down, so what leads up to it shows too.
 */
export function revealLine(line: number, scroll: number, height: number, max: number): number {
	if (line >= scroll && line < scroll + height) return scroll;
	return Math.max(0, Math.min(max, line - Math.floor(height / 3)));
}

/** A line's text cut where matches start and end, for drawing them highlighted; `current` is the match `n` is on. */
export function highlightSegments(
	text: string,
	matches: readonly FindMatch[],
	current: FindMatch | undefined,
): Array<{text: string; match: 'none' | 'other' | 'current'}> {
	const segments: Array<{text: string; match: 'none' | 'other' | 'current'}> = [];
	let at = 0;
	for (const match of matches) {
		if (match.start > at) segments.push({text: text.slice(at, match.start), match: 'none'});
		segments.push({text: text.slice(match.start, match.end), match: match === current ? 'current' : 'other'});
		at = match.end;
	}

	if (at < text.length) segments.push({text: text.slice(at), match: 'none'});
	return segments;
}

/**
 * Which of `after`'s matches is the one that was current in `before`'s lines, once the folds changed them.
 * Folding or unfolding replaces blocks in the middle: lines in the unchanged start keep their place, lines in
 * the unchanged end move by the change in length, and a match inside what changed lands on the first match
 * from where that change starts.
 */
export function carryMatch(
	before: readonly InspectorLine[],
	after: readonly InspectorLine[],
	match: FindMatch,
	found: readonly FindMatch[],
): number | undefined {
	let head = 0;
	const shortest = Math.min(before.length, after.length);
	while (head < shortest && before[head]!.text === after[head]!.text) head++;
	let tail = 0;
	while (tail < shortest - head && before[before.length - 1 - tail]!.text === after[after.length - 1 - tail]!.text) tail++;
	let line: number;
	if (match.line < head) line = match.line;
	else if (match.line >= before.length - tail) line = match.line + after.length - before.length;
	else return firstMatchFrom(found, head);
	const same = found.findIndex(other => other.line === line && other.start === match.start);
	return same === -1 ? firstMatchFrom(found, line) : same;
}

/**
 * Whether `/` must unfold the inspector's blocks to find `query`: the lines with every block whole (`whole`) hold
 * matches the folded ones (`folded`) do not show. Find looks in what a fold hides too, and unfolds to it.
 */
export function findNeedsUnfolding(folded: readonly InspectorLine[], whole: readonly InspectorLine[], query: string): boolean {
	return query !== '' && findMatches(whole, query).length > findMatches(folded, query).length;
}
