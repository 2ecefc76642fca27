import {spawnSync} from 'node:child_process';
import {statSync, writeFileSync} from 'node:fs';
import {dirname, join, relative} from 'node:path';
import {fixtureFiles, root} from '../helpers/fixture-files.js';
import {hostileLog} from './hostile-log.js';

/*
 * The logs the chunk workers' tests read (fast-path-cli.test.ts, worker-failure.test.ts): a few fixtures, a
 * generated log and the hostile one.
 */

/**
 * The largest fixture of each folder under fixtures/ (each dialect, each recorder, the peer cases), as paths under
 * fixtures/: the workers' own logic (claims, counts, batches, a failure part way) does not depend on the lines, and
 * a worker starts for each file of a run (~0.1 s each), so the runs that use workers read these ~15 rather than all
 * ~190. What every fixture's lines become when they cross from a worker is checked in-process, without threads
 * (fast-path-parts.test.ts), and every fixture is read through the fast path's chunks (fast-path-model.test.ts).
 */
export function fixturesOfEachKind(): string[] {
	const largest = new Map<string, {path: string; size: number}>();
	for (const path of fixtureFiles()) {
		const folder = dirname(path);
		const size = statSync(path).size;
		const known = largest.get(folder);
		if (!known || size > known.size) largest.set(folder, {path, size});
	}

	return [...largest.values()].map(({path}) => relative(root, path)).sort();
}

/** Writes a generated log (several jobs, delegates, streaming deltas) to `path`; an Error if the generator fails. */
export function writeGeneratedLog(path: string): void {
	const options = ['--seed', '5', '--jobs', '3', '--steps', '8', '--children', '2', '--deltas', '10', '--message-bytes', '400'];
	const generated = spawnSync(process.execPath, ['build/tools/generate-log.js', ...options, '--out', path], {cwd: root, encoding: 'utf8'});
	if (generated.status !== 0) throw new Error(`generate-log failed: ${generated.stderr}`);
}

/** Writes the hostile log (hostile-log.ts) into `directory`, returning its path. */
export function writeHostileLog(directory: string): string {
	const path = join(directory, 'hostile.ndjson');
	writeFileSync(path, hostileLog());
	return path;
}
