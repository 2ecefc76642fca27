import {readdirSync, statSync} from 'node:fs';
import {readdir, stat} from 'node:fs/promises';
import {join} from 'node:path';
import {compareEventFiles} from './event-order.js';

/*
 * The layout Perstack persists a job in:
 *
 *   jobs/<jobId>/job.json                                   (older runtimes; optional)
 *   jobs/<jobId>/checkpoints/<checkpointId>.json
 *   jobs/<jobId>/runs/<runId>/run-setting.json              (older runtimes; optional)
 *   jobs/<jobId>/runs/<runId>/event-<timestamp>-<step>-<type>.json   one RunEvent per file
 *
 * Only the event files are needed: the events carry their checkpoints, and nothing may depend on the
 * optional files because the current runtime does not write them.
 */

export type EventFile = {
	path: string;
	name: string;
	timestamp: number;
	step: number;
	type: string;
};

const eventFileName = /^event-(.*)\.json$/;

/** The parts of `event-<timestamp>-<step>-<type>.json`; undefined for any other name. Unreadable parts are NaN. */
export function parseEventFileName(name: string): Omit<EventFile, 'path'> | undefined {
	const match = eventFileName.exec(name);
	if (!match) return undefined;
	const [timestamp = '', step = '', ...type] = (match[1] ?? '').split('-');
	return {name, timestamp: wholeNumber(timestamp), step: wholeNumber(step), type: type.join('-')};
}

/** A job directory: it has `runs/` (or the `job.json` older runtimes wrote). */
export function isJobDirectory(path: string): boolean {
	return isDirectory(join(path, 'runs')) || isFile(join(path, 'job.json'));
}

/** A run directory (`runs/<runId>`): it holds event files itself. */
export function isRunDirectory(path: string): boolean {
	try {
		return readdirSync(path).some(name => eventFileName.test(name));
	} catch {
		return false;
	}
}

/** A directory of jobs (`perstack/jobs`) or one that contains it (`perstack`). */
export function isJobsRoot(path: string): boolean {
	if (!isDirectory(path) || isJobDirectory(path)) return false;
	if (isDirectory(join(path, 'jobs'))) return true;
	return jobDirectoriesIn(path).length > 0;
}

/** The job directories under a jobs root. */
export function jobDirectoriesIn(root: string): string[] {
	const jobs = isDirectory(join(root, 'jobs')) && !isJobDirectory(join(root, 'jobs')) ? join(root, 'jobs') : root;
	let names: string[];
	try {
		names = readdirSync(jobs);
	} catch {
		return [];
	}

	return names
		.sort()
		.map(name => join(jobs, name))
		.filter(path => isDirectory(path) && isJobDirectory(path));
}

/** The directories that hold a job's event files: one per run, or the run directory itself. */
export async function eventDirectoriesOf(path: string): Promise<string[]> {
	const runs = join(path, 'runs');
	let entries;
	try {
		entries = await readdir(runs, {withFileTypes: true});
	} catch {
		return isJobDirectory(path) ? [] : [path];
	}

	return entries
		.filter(entry => entry.isDirectory())
		.map(entry => entry.name)
		.sort()
		.map(name => join(runs, name));
}

export function eventDirectoriesOfSync(path: string): string[] {
	const runs = join(path, 'runs');
	try {
		return readdirSync(runs, {withFileTypes: true})
			.filter(entry => entry.isDirectory())
			.map(entry => entry.name)
			.sort()
			.map(name => join(runs, name));
	} catch {
		return isJobDirectory(path) ? [] : [path];
	}
}

/** The event files of one directory, in event order. */
export async function eventFilesIn(directory: string): Promise<EventFile[]> {
	let names: string[];
	try {
		names = await readdir(directory);
	} catch {
		return [];
	}

	return toEventFiles(directory, names);
}

export function eventFilesInSync(directory: string): EventFile[] {
	let names: string[];
	try {
		names = readdirSync(directory);
	} catch {
		return [];
	}

	return toEventFiles(directory, names);
}

/** Last-modified time of a directory, or undefined when it is gone. */
export async function modifiedAt(path: string): Promise<number | undefined> {
	try {
		return (await stat(path)).mtimeMs;
	} catch {
		return undefined;
	}
}

function toEventFiles(directory: string, names: string[]): EventFile[] {
	const files: EventFile[] = [];
	for (const name of names) {
		const parsed = parseEventFileName(name);
		if (parsed) files.push({...parsed, path: join(directory, name)});
	}

	return files.sort(compareEventFiles);
}

function wholeNumber(text: string): number {
	return /^\d+$/.test(text) ? Number(text) : Number.NaN;
}

function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

function isFile(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}
