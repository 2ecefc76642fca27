import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {putParts, type PostedParts} from './load-in-worker.js';
import {ModelPoster, type LoadMessage} from './load-worker.js';
import {modelSnapshot} from '../../test/helpers/model-snapshot.js';
import {fixturePath, modelFromText} from '../../test/helpers/load.js';

/*
 * The load worker posts a model's activities and runs to the viewer ahead of the rest of the model, and only
 * those the viewer does not have: its list of activities is kept in step by putting each posted activity at its
 * index, and its runs by replacing each posted run.
 */

function newParts(): PostedParts {
	return {activities: [], runs: new Map()};
}

/** The viewer's side (load-in-worker.ts). */
function apply(parts: PostedParts, messages: LoadMessage[]): void {
	for (const message of messages) if (message.kind === 'activities' || message.kind === 'changed activities' || message.kind === 'runs') putParts(parts, message);
}

const postedRuns = (messages: LoadMessage[]) => messages.flatMap(message => (message.kind === 'runs' ? message.runs.map(([runId]) => runId) : []));

const posted = (messages: LoadMessage[]) => messages.flatMap(message => (message.kind === 'activities' || message.kind === 'changed activities' ? message.activities : []));

describe('the activities a load worker posts', () => {
	it('are each sent once, unless the reducer has replaced them since', () => {
		const lines = readFileSync(fixturePath('real/delegate.ndjson'), 'utf8').split('\n');
		const half = Math.floor(lines.length / 2);
		const messages: LoadMessage[] = [];
		const poster = new ModelPoster(message => messages.push(message));

		const model = modelFromText(lines.slice(0, half).join('\n') + '\n');
		poster.postChanges(model);
		const parts = newParts();
		apply(parts, messages);
		const viewer = parts.activities;
		expect(viewer).toStrictEqual(model.activities);
		const first = [...model.activities];

		messages.length = 0;
		modelFromText(lines.slice(half).join('\n'), {model});
		poster.postChanges(model);
		apply(parts, messages);

		// The viewer holds the very objects of the worker's model, in order.
		expect(viewer).toHaveLength(model.activities.length);
		for (const [index, activity] of model.activities.entries()) expect(viewer[index]).toBe(activity);
		// What went the second time: the new activities and the replaced ones, nothing the viewer had.
		const replaced = first.filter((activity, index) => model.activities[index] !== activity);
		expect(replaced.length, 'the fixture replaces some activities after its first half').toBeGreaterThan(0);
		expect(posted(messages)).toHaveLength(model.activities.length - first.length + replaced.length);
		for (const activity of posted(messages)) expect(first).not.toContain(activity);
	});

	it('go in parts, so the viewer can decode one while the worker encodes the next', () => {
		const messages: LoadMessage[] = [];
		const model = modelFromText(readFileSync(fixturePath('real/delegate.ndjson')));
		const many = Array.from({length: 1200}, (_, index) => model.activities[index % model.activities.length]!);
		new ModelPoster(message => messages.push(message)).postChanges({...model, activities: many});
		expect(messages.map(message => (message.kind === 'activities' ? [message.from, message.activities.length] : message.kind))).toStrictEqual([
			[0, 500],
			[500, 500],
			[1000, 200],
			'runs',
		]);
	});

	it('are followed by the rest of the model, without its activities and runs', () => {
		const messages: LoadMessage[] = [];
		const model = modelFromText(readFileSync(fixturePath('real/delegate.ndjson')));
		new ModelPoster(message => messages.push(message)).postModel(model, rest => ({kind: 'done', states: [], model: rest, exitCode: 0}));
		const last = messages.at(-1);
		expect(last?.kind).toBe('done');
		expect(last?.kind === 'done' && Object.keys(last.model).filter(key => key === 'activities' || key === 'runs')).toStrictEqual([]);
		expect(posted(messages)).toHaveLength(model.activities.length);
		expect(postedRuns(messages)).toStrictEqual([...model.runs.keys()]);
	});
});

describe('the runs a load worker posts', () => {
	it('are each sent again only once they changed, and arrive as the worker has them, streamed text included', () => {
		// Two jobs one after the other: the first job's runs are done by the time the second one streams.
		const first = readFileSync(fixturePath('real/delegate.ndjson'), 'utf8');
		const second = readFileSync(fixturePath('streaming.ndjson'), 'utf8');
		const middle = second.indexOf('\n', second.length >> 1) + 1;
		const messages: LoadMessage[] = [];
		const poster = new ModelPoster(message => messages.push(message));
		const parts = newParts();
		const post = () => {
			messages.length = 0;
			poster.postChanges(model);
			apply(parts, messages);
			return postedRuns(messages);
		};

		const model = modelFromText(first);
		const firstRuns = post();
		expect(firstRuns).toStrictEqual([...model.runs.keys()]);

		modelFromText(second.slice(0, middle), {model});
		const secondRuns = post();
		expect(secondRuns.length, 'the second job’s runs').toBeGreaterThan(0);
		for (const runId of firstRuns) expect(secondRuns, 'the first job’s runs, which did not change').not.toContain(runId);

		modelFromText(second.slice(middle), {model});
		expect(post().length, 'runs still streaming').toBeGreaterThan(0);

		// The runs as the viewer has them, in the worker's order.
		expect(modelSnapshot(parts.runs)).toStrictEqual(modelSnapshot(model.runs));
	});

	it('go in parts too', () => {
		const starts = Array.from({length: 60}, (_, index) =>
			JSON.stringify({type: 'startRun', id: `start-${index}`, expertKey: 'expert', timestamp: 1_700_000_000_000, jobId: 'job', runId: `run-${index}`, stepNumber: 1, initialCheckpoint: {status: 'init', stepNumber: 1}}),
		);
		const messages: LoadMessage[] = [];
		new ModelPoster(message => messages.push(message)).postChanges(modelFromText(starts.join('\n')));
		expect(messages.flatMap(message => (message.kind === 'runs' ? [message.runs.length] : []))).toStrictEqual([25, 25, 10]);
	});
});
