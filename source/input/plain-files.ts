import type {InputPlan} from './inputs.js';

export type PlainFile = {path: string; label: string; size: number};

/**
 * The plan's files when every input is a regular, uncompressed file that is not followed; else undefined.
 * Those can be read in any order of chunks, and read again by offset (the inspector does), so the fast
 * loaders take them (load/parallel/, load/viewer/), unless PERSCOPE_FAST=0 (cli/main.ts) keeps the app from
 * calling them. Decided from the forms the plan holds: no file is looked at here.
 */
export function plainFiles(plan: InputPlan): PlainFile[] | undefined {
	if (plan.follow || plan.jobsRoot !== undefined || plan.inputs.length === 0) return undefined;
	const files: PlainFile[] = [];
	for (const input of plan.inputs) {
		if (input.kind !== 'file' || input.form.kind !== 'plain') return undefined;
		files.push({path: input.path, label: input.label, size: input.form.size});
	}

	return files;
}
