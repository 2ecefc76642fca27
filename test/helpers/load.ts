import {readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {Ingest} from '../../source/load/ingest.js';
import type {Activity, Model, Run} from '../../source/model/state.js';

export const fixturesDir = fileURLToPath(new URL('../../fixtures/', import.meta.url));

export function fixturePath(name: string): string {
	return `${fixturesDir}${name}`;
}

/** Reduces text as if it were read from a file, in chunks of `chunkSize` bytes (to exercise boundaries). */
export function modelFromText(text: string | Buffer, options: {source?: string; chunkSize?: number; model?: Model} = {}): Model {
	const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024, ...(options.model ? {model: options.model} : {})});
	const splitter = ingest.splitter(options.source ?? 'test');
	const bytes = typeof text === 'string' ? Buffer.from(text) : text;
	const size = options.chunkSize ?? bytes.length;
	for (let i = 0; i < bytes.length; i += Math.max(1, size)) splitter.push(bytes.subarray(i, i + Math.max(1, size)));
	splitter.end();
	return ingest.model;
}

export function modelFromFixtures(...names: string[]): Model {
	let model: Model | undefined;
	for (const name of names) model = modelFromText(readFileSync(fixturePath(name)), {source: name, ...(model ? {model} : {})});
	if (!model) throw new Error('no fixtures given');
	return model;
}

export function runsOf(model: Model): Run[] {
	return [...model.runs.values()];
}

export function runByExpert(model: Model, expertKey: string, nth = 0): Run {
	const runs = runsOf(model).filter(run => run.expertKey === expertKey);
	const run = runs[nth];
	if (!run)
		throw new Error(
			`no run #${nth} of ${expertKey}; runs: ${runsOf(model)
				.map(r => r.expertKey)
				.join(', ')}`,
		);
	return run;
}

export function paneActivities(model: Model, paneId: string): Activity[] {
	const pane = model.panes.get(paneId);
	if (!pane) throw new Error(`no pane ${paneId}`);
	return pane.activityIndices.map(index => model.activities[index]!);
}

export function activitiesOfRun(model: Model, run: Run): Activity[] {
	return model.activities.filter(activity => activity.runId === run.runId);
}

/** A Perstack event line with the base fields filled in. */
export function perstackLine(type: string, fields: Record<string, unknown> = {}, base: Record<string, unknown> = {}): string {
	return JSON.stringify({
		id: `e-${Math.random().toString(36).slice(2)}`,
		expertKey: 'expert',
		timestamp: 1_700_000_000_000,
		jobId: 'job-1',
		runId: 'run-1',
		stepNumber: 1,
		type,
		...base,
		...fields,
	});
}
