import {copyFileSync, mkdirSync, readdirSync} from 'node:fs';
import {join} from 'node:path';
import {expect} from 'vitest';

/*
 * The agent CLIs' recordings as they lie on disk: fixtures keep their lines in `.ndjson` files, and the CLIs name
 * theirs `.jsonl`.
 */

/** Copies the tree `from` to `to`, each `.ndjson` file named `.jsonl`, as Claude Code or Codex wrote it. */
export function copyAsWritten(from: string, to: string): void {
	for (const entry of readdirSync(from, {withFileTypes: true})) {
		if (entry.isDirectory()) copyAsWritten(join(from, entry.name), join(to, entry.name));
		else {
			mkdirSync(to, {recursive: true});
			copyFileSync(join(from, entry.name), join(to, entry.name.replace(/\.ndjson$/, '.jsonl')));
		}
	}
}

/** The byte offset of the start of the first line of `bytes` that holds `text` (which must be there). */
export function lineOffsetOf(bytes: Buffer, text: string): number {
	const at = bytes.indexOf(text);
	expect(at).toBeGreaterThanOrEqual(0);
	return bytes.lastIndexOf(10, at) + 1;
}
