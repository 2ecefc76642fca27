import {statSync} from 'node:fs';
import {isGzipFile} from './gzip-magic.js';
import type {InputPlan} from './inputs.js';

export type PlainFile = {path: string; label: string};

/**
 * The plan's files when every input is a regular, uncompressed file that is not followed; else undefined.
 * Those can be read in any order of chunks, and read again by offset (the inspector does), so the fast
 * loaders take them (parallel-file.ts, load-in-worker.ts), unless PERSCOPE_FAST=0 (cli/main.ts) keeps
 * the app from calling them.
 */
export function plainFiles(plan: InputPlan): PlainFile[] | undefined {
	if (plan.follow || plan.jobsRoot !== undefined || plan.inputs.length === 0) return undefined;
	const files: PlainFile[] = [];
	for (const input of plan.inputs) {
		if (input.kind !== 'file') return undefined;
		try {
			if (!statSync(input.path).isFile()) return undefined;
		} catch {
			// The usual reader reports it the usual way.
			return undefined;
		}

		if (isGzipFile(input.path)) return undefined;
		files.push({path: input.path, label: input.label});
	}

	return files;
}
