import {displayWidth, truncateEnd} from './width/width.js';

/** What the short label needs to know of a source: what kind it is and what it is called. */
export type LabelledSource = {kind: 'file' | 'stdin' | 'command' | 'job'; label: string; command?: string[] | undefined};

/** Columns a command may take in the header before its later words give way to `…`. */
const commandColumns = 24;

/** The last segment of a path (a trailing slash ignored), or the path when it has none. */
export function baseName(path: string): string {
	const trimmed = path.replace(/[/\\]+$/, '');
	const last = trimmed.split(/[/\\]/).at(-1);
	return last === undefined || last === '' ? path : last;
}

/** A command's first words, as many as fit in `columns`, then `…`. */
function firstWords(words: string[], columns: number): string {
	let shown = '';
	for (const [index, word] of words.entries()) {
		const name = index === 0 ? baseName(word) : word;
		const next = shown === '' ? name : `${shown} ${name}`;
		if (displayWidth(next) > columns) return shown === '' ? truncateEnd(name, columns) : `${shown} …`;
		shown = next;
	}

	return shown;
}

function shortName(source: LabelledSource, label: string): string {
	switch (source.kind) {
		case 'file':
		case 'job':
			return baseName(label);
		case 'stdin':
			return label;
		case 'command':
			return firstWords(source.command ?? label.split(' '), commandColumns);
		default:
			return assertNever(source.kind);
	}
}

function assertNever(value: never): never {
	throw new Error(`unexpected source kind ${String(value)}`);
}

/**
 * The header's name for where events come from, short enough to leave the job's status room: a file's
 * base name, `+2 files` for the others, a command's first words. `label` is the whole label, used
 * when there is one source (or none known).
 */
export function shortSourceLabel(label: string, sources: readonly LabelledSource[]): string {
	const [first] = sources;
	if (first === undefined) return label;
	if (sources.length === 1) return shortName(first, label);
	const others = sources.length - 1;
	const noun = sources.every(source => source.kind === 'file') ? 'file' : 'source';
	return `${shortName(first, first.label)} +${others} ${noun}${others === 1 ? '' : 's'}`;
}
