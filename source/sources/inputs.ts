import {accessSync, constants, statSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

export type Input = {kind: 'file'; path: string; label: string} | {kind: 'stdin'; label: string};

export type InputPlan = {
	inputs: Input[];
	/** What the header calls the source: a file name, `stdin`, or `demo`. */
	label: string;
	demo: boolean;
};

export const demoLogPath = fileURLToPath(new URL('../../fixtures/demo.ndjson', import.meta.url));

/**
 * Decides where events come from, and checks up front that every file can be read, so a typo gives one
 * clear message and exit code 1 instead of a half-drawn screen.
 */
export function resolveInputs(paths: string[], context: {stdinIsTTY: boolean}): InputPlan {
	if (paths.length === 0) {
		if (!context.stdinIsTTY) return {inputs: [{kind: 'stdin', label: 'stdin'}], label: 'stdin', demo: false};
		return {inputs: [{kind: 'file', path: demoLogPath, label: 'demo'}], label: 'demo', demo: true};
	}

	const inputs: Input[] = paths.map(path => {
		if (path === '-') return {kind: 'stdin', label: 'stdin'};
		checkReadable(path);
		return {kind: 'file', path, label: path};
	});
	return {inputs, label: inputs.map(input => input.label).join(', '), demo: false};
}

function checkReadable(path: string): void {
	let isDirectory: boolean;
	try {
		isDirectory = statSync(path).isDirectory();
		accessSync(path, constants.R_OK);
	} catch (error) {
		throw new Error(`cannot read ${path}: ${describeFsError(error)}`);
	}

	if (isDirectory) throw new Error(`cannot read ${path}: it is a directory, not an event log`);
}

export function describeFsError(error: unknown): string {
	const code = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
	switch (code) {
		case 'ENOENT':
			return 'no such file';
		case 'EACCES':
		case 'EPERM':
			return 'permission denied';
		case 'EISDIR':
			return 'it is a directory';
		default:
			return error instanceof Error ? error.message : String(error);
	}
}
