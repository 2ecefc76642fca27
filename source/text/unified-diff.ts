import {splitLines} from './numbered-lines.js';

/*
 * editTextFile replaces one piece of text with another; a unified diff of the two is how a developer
 * reads such a change. The pieces are small (Perstack caps each at 2,000 characters), but a log can
 * hold anything, so the quadratic longest-common-subsequence table is only built for inputs whose
 * product of line counts stays bounded; beyond that the diff is every old line removed and every new
 * line added, which is still correct, only less precise.
 */
const maxTableCells = 1_000_000;

export type DiffLine = {kind: 'context' | 'removed' | 'added'; text: string};

/** The line-by-line edit from `oldText` to `newText`, unchanged lines included. */
export function diffLines(oldText: string, newText: string): DiffLine[] {
	const before = splitLines(oldText);
	const after = splitLines(newText);
	if (before.length * after.length > maxTableCells) {
		return [...before.map(text => ({kind: 'removed' as const, text})), ...after.map(text => ({kind: 'added' as const, text}))];
	}

	// common[i][j]: length of the longest common subsequence of before[i..] and after[j..].
	const columns = after.length + 1;
	const common = new Uint32Array((before.length + 1) * columns);
	for (let i = before.length - 1; i >= 0; i--) {
		for (let j = after.length - 1; j >= 0; j--) {
			common[i * columns + j] =
				before[i] === after[j] ? common[(i + 1) * columns + j + 1]! + 1 : Math.max(common[(i + 1) * columns + j]!, common[i * columns + j + 1]!);
		}
	}

	const out: DiffLine[] = [];
	let i = 0;
	let j = 0;
	while (i < before.length || j < after.length) {
		if (i < before.length && j < after.length && before[i] === after[j]) {
			out.push({kind: 'context', text: before[i]!});
			i++;
			j++;
		} else if (i < before.length && (j === after.length || common[(i + 1) * columns + j]! >= common[i * columns + j + 1]!)) {
			// Removals first on a tie: a changed line reads as the old one, then the new one.
			out.push({kind: 'removed', text: before[i]!});
			i++;
		} else {
			out.push({kind: 'added', text: after[j]!});
			j++;
		}
	}

	return out;
}

const prefix: Record<DiffLine['kind'], string> = {context: ' ', removed: '-', added: '+'};

/**
 * A unified diff of the replacement: `--- old` / `+++ new` headers, one hunk for the whole piece, and each line
 * with its ` `/`-`/`+`. The piece is a fragment of a file: its hunk is numbered from the file line it starts at
 * (`fileLine`) when the file's text is known, else from 1.
 */
export function unifiedDiff(oldText: string, newText: string, fileLine = 1): string[] {
	const lines = diffLines(oldText, newText);
	const oldCount = lines.filter(line => line.kind !== 'added').length;
	const newCount = lines.filter(line => line.kind !== 'removed').length;
	return ['--- old text', '+++ new text', `@@ -${fileLine},${oldCount} +${fileLine},${newCount} @@`, ...lines.map(line => `${prefix[line.kind]}${line.text}`)];
}

/**
 * The file line (from 1) `oldText` starts at in the file's text `fileText`, whose first line is line `firstLine`
 * of the file (a read of part of it); undefined unless it occurs there exactly once (the edit could be either).
 */
export function lineOfPiece(fileText: string, oldText: string, firstLine = 1): number | undefined {
	if (oldText === '') return undefined;
	const at = fileText.indexOf(oldText);
	if (at === -1 || fileText.indexOf(oldText, at + 1) !== -1) return undefined;
	let line = firstLine;
	for (let i = fileText.indexOf('\n'); i !== -1 && i < at; i = fileText.indexOf('\n', i + 1)) line++;
	return line;
}
