import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, describe, expect, it} from 'vitest';
import {root} from '../helpers/fixture-files.js';
import {fileInput, type InputPlan} from '../../source/input/inputs.js';
import type {Model} from '../../source/model/state.js';

/*
 * The cockpit carries a job on by running a command whose events join the model the viewer loaded
 * (Loading.addCommand): on the viewer's thread into the same reducer; after a worker's load, by reading the log again
 * here first (the reducer's indexes stayed in the worker). Either way the job must end as one continuous log of
 * the same lines would. Workers run compiled code, so this drives the built modules (npm test builds).
 */

type Modules = {
	here: typeof import('../../source/load/load-here.js');
	inWorker: typeof import('../../source/load/viewer/load-in-worker.js');
	headless: typeof import('../../source/api/index.js');
};

const directory = mkdtempSync(join(tmpdir(), 'perscope-continue-'));
afterAll(() => rmSync(directory, {recursive: true, force: true}));

async function built(): Promise<Modules> {
	const load = async <T>(path: string): Promise<T> => import(pathToFileURL(join(root, 'dist', path)).href) as Promise<T>;
	return {here: await load('load/load-here.js'), inWorker: await load('load/viewer/load-in-worker.js'), headless: await load('api/index.js')};
}

const fixture = (name: string) => readFileSync(join(root, 'fixtures/released', name), 'utf8');
const asked = join(directory, 'asked.ndjson');
writeFileSync(asked, fixture('ask-1.ndjson') + fixture('ask-2-followup.ndjson'));
const answer = join(directory, 'answer.ndjson');
writeFileSync(answer, fixture('ask-3-answer-json.ndjson'));
const plan: InputPlan = {inputs: [fileInput(asked, 'asked.ndjson')], label: 'asked.ndjson', demo: false, follow: false, jobsRoot: undefined};
/** The answer's events, written by a child as the runtime writes them. */
const answering = {
	command: [process.execPath, '-e', `process.stdout.write(require('node:fs').readFileSync(${JSON.stringify(answer)}))`],
	label: 'perstack run helper … -i',
};

/** What a person sees of the job: its runs' statuses and steps, and the counts of events and activities. */
function figures(model: Model) {
	return {
		jobs: model.jobs.size,
		runs: [...model.runs.values()].map(run => `${run.expertKey} ${run.status} ${run.endedSteps.length}`),
		events: model.events,
		activities: model.activities.length,
		diagnostics: model.diagnostics.map(diagnostic => diagnostic.reason),
	};
}

/** The same lines as one log, read by the library. */
function oneLog(modules: Modules) {
	const reducer = modules.headless.createReducer();
	for (const line of (fixture('ask-1.ndjson') + fixture('ask-2-followup.ndjson') + fixture('ask-3-answer-json.ndjson')).split('\n'))
		if (line !== '') reducer.push(line);
	return reducer;
}

describe('a command started into a load that has ended (the cockpit’s answer)', () => {
	it('on the viewer’s thread: the answer’s events join the same job, which ends as one log of the same lines does', async () => {
		const modules = await built();
		const loading = modules.here.loadHere(plan, {maxLineBytes: 1 << 20});
		expect(await loading.done).toBe(0);
		const waiting = [...loading.model.runs.values()].at(-1);
		expect(waiting?.status).toBe('stoppedByInteractiveTool');
		const added = await loading.addCommand!(answering);
		expect(loading.states.at(-1)).toBe(added.state);
		expect(await added.done).toBe(0);
		expect(added.state.live).toBe(false);
		const expected = figures(oneLog(modules).model as unknown as Model);
		expect(figures(loading.model)).toEqual(expected);
		expect([...loading.model.runs.values()].at(-1)?.status).toBe('completed');
	});

	it('after a worker’s load: the log is read again on this thread, then the answer joins it; the views are handed the new model', async () => {
		const modules = await built();
		const handed: Model[] = [];
		const loading = modules.inWorker.loadInWorker(plan, {maxLineBytes: 1 << 20, onModel: model => handed.push(model)});
		expect(await loading.done).toBe(0);
		const before = handed.length;
		const added = await loading.addCommand!(answering);
		expect(handed.length, 'the model read again here replaces the one the worker posted').toBe(before + 1);
		expect(loading.states.at(-1)).toBe(added.state);
		expect(await added.done).toBe(0);
		expect(figures(loading.model)).toEqual(figures(oneLog(modules).model as unknown as Model));
		loading.stop();
	});

	it('refuses while a worker still reads the log', async () => {
		const modules = await built();
		let draw = () => {};
		const drawn = new Promise<void>(resolve => (draw = resolve));
		const loading = modules.inWorker.loadInWorker(plan, {maxLineBytes: 1 << 20, mainThreadFrom: drawn});
		await expect(loading.addCommand!(answering)).rejects.toThrow('the log is still being read');
		draw();
		expect(await loading.done).toBe(0);
		loading.stop();
	});
});
