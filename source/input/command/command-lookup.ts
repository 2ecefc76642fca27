import {accessSync, constants, statSync} from 'node:fs';
import {delimiter, join} from 'node:path';
import {errorCode} from '../fs-errors.js';

/**
 * Why `name` cannot be run, or undefined when it can. Checked before anything starts, the way a shell
 * looks a command up in `searchPath` (PATH, given by the CLI), so a typo gives one clear message instead of
 * a viewer waiting for events.
 */
export function whyNotRunnable(name: string, searchPath: string): string | undefined {
	// Windows resolves through PATHEXT and the registry; spawn's own error is the better judge there.
	if (process.platform === 'win32') return undefined;
	if (name === '') return 'empty command name';
	if (name.includes('/')) return problemWith(name, true);
	let denied = false;
	for (const directory of searchPath.split(delimiter)) {
		const problem = problemWith(join(directory === '' ? '.' : directory, name), false);
		if (problem === undefined) return undefined;
		if (problem === 'permission denied') denied = true;
	}

	return denied ? 'permission denied' : 'command not found';
}

/** What the spawn error of a command that could not start means, in the same words. */
export function describeSpawnError(error: unknown, name: string): string {
	const code = errorCode(error);
	if (code === 'ENOENT') return name.includes('/') ? 'no such file' : 'command not found';
	if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
	return error instanceof Error ? error.message : String(error);
}

function problemWith(path: string, named: boolean): string | undefined {
	try {
		if (statSync(path).isDirectory()) return named ? 'it is a directory' : 'not here';
		accessSync(path, constants.X_OK);
		return undefined;
	} catch (error) {
		const code = errorCode(error);
		if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
		return named ? 'no such file' : 'not here';
	}
}
