import {readdirSync, statSync, type Dirent} from 'node:fs';
import {join, sep} from 'node:path';
import {isMissing} from '../fs-errors.js';
import {isDirectory, isFile, namesIn, whatItIs} from '../regular-file.js';

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
	/**
	 * What the directory listing says the entry is: a regular file, something to look at when it is opened (a
	 * link, or a file system that does not say), or what else it is in words (`a FIFO`): never opened.
	 */
	kind: 'regular' | 'unknown' | {other: string};
};

const eventFileName = /^event-(.*)\.json$/;

/** The parts of `event-<timestamp>-<step>-<type>.json`; undefined for any other name. Unreadable parts are NaN. */
export function parseEventFileName(name: string): Omit<EventFile, 'path' | 'kind'> | undefined {
	if (!eventFileName.test(name)) return undefined;
	// Cut with indexOf, not split and join: a job can have 100,000 of these, and each piece made is kept or collected.
	const end = name.length - '.json'.length;
	const first = name.indexOf('-', 'event-'.length);
	const second = first === -1 || first >= end ? -1 : name.indexOf('-', first + 1);
	const timestampEnd = first === -1 || first >= end ? end : first;
	const stepEnd = second === -1 || second >= end ? end : second;
	return {
		name,
		timestamp: wholeNumber(name.slice('event-'.length, timestampEnd)),
		step: timestampEnd === end ? Number.NaN : wholeNumber(name.slice(timestampEnd + 1, stepEnd)),
		type: stepEnd === end ? '' : name.slice(stepEnd + 1, end),
	};
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
	return namesIn(jobs)
		.map(name => join(jobs, name))
		.filter(path => isDirectory(path) && isJobDirectory(path));
}

/** The directories that hold a job's event files (one per run, or the run directory itself), and `runs/` when it cannot be listed. */
export function eventDirectoriesOf(path: string): {directories: string[]; unreadable: {path: string; error: unknown} | undefined} {
	const runs = join(path, 'runs');
	let entries: Dirent[];
	try {
		entries = readdirSync(runs, {withFileTypes: true});
	} catch (error) {
		// No `runs/`: a run directory given on its own holds its event files itself.
		if (isMissing(error) && !isJobDirectory(path)) return {directories: [path], unreadable: undefined};
		return {directories: [], unreadable: isMissing(error) ? undefined : {path: runs, error}};
	}

	const directories = entries
		.filter(entry => entry.isDirectory())
		.map(entry => entry.name)
		.sort()
		.map(name => join(runs, name));
	return {directories, unreadable: undefined};
}

/** The event files of one directory, in the order listed (the caller sorts them with those of the other runs); throws what readdir throws. */
export function eventFilesIn(directory: string): EventFile[] {
	const files: EventFile[] = [];
	for (const entry of readdirSync(directory, {withFileTypes: true})) {
		const parsed = parseEventFileName(entry.name);
		if (!parsed) continue;
		// The listing's type, read with the names at no extra cost: no stat of each file. A link is looked at when opened.
		const kind: EventFile['kind'] = entry.isFile() ? 'regular' : entry.isSymbolicLink() || !knownType(entry) ? 'unknown' : {other: whatItIs(entry)};
		// Joined by hand: path.join makes a new flat string of each, which took 20 of 33 MB for 100,000 files.
		files.push({path: `${directory}${sep}${entry.name}`, name: parsed.name, timestamp: parsed.timestamp, step: parsed.step, type: parsed.type, kind});
	}

	return files;
}

/** Last-modified time of a directory, or undefined when it is gone. */
export function modifiedAt(path: string): number | undefined {
	try {
		return statSync(path).mtimeMs;
	} catch {
		return undefined;
	}
}

/** Some file systems do not say what an entry is (DT_UNKNOWN): then every test of its kind is false. */
function knownType(entry: Dirent): boolean {
	return (
		entry.isFile() || entry.isDirectory() || entry.isSymbolicLink() || entry.isFIFO() || entry.isSocket() || entry.isCharacterDevice() || entry.isBlockDevice()
	);
}

function wholeNumber(text: string): number {
	return /^\d+$/.test(text) ? Number(text) : Number.NaN;
}

/** A job's event files; a run that cannot be listed only makes the listing less complete (opening the job says so). */
export function eventFilesOf(path: string): EventFile[] {
	return eventDirectoriesOf(path).directories.flatMap(directory => {
		try {
			return eventFilesIn(directory);
		} catch {
			return [];
		}
	});
}
