import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll} from 'vitest';

/**
 * Called at a test file's top level: a function that makes a new directory under the system's temporary one, named
 * `prefix` and six random characters, each removed after the file's tests (hundreds were left behind in /tmp).
 */
export function scratchDirectories(prefix: string): () => string {
	const made: string[] = [];
	afterAll(() => {
		for (const directory of made) rmSync(directory, {recursive: true, force: true});
	});
	return () => {
		const directory = mkdtempSync(join(tmpdir(), prefix));
		made.push(directory);
		return directory;
	};
}
