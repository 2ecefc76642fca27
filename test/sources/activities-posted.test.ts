import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import type {Activity} from '../../source/model/state.js';
import {putActivities} from '../../source/sources/load-in-worker.js';
import {ActivitiesPosted, type LoadMessage} from '../../source/sources/load-worker.js';
import {fixturePath, modelFromText} from '../helpers/load.js';

/*
 * The load worker posts a model's activities to the viewer ahead of the rest of the model, and only those the
 * viewer does not have: its list is kept in step by putting each posted activity at its index.
 */

/** The viewer's side (load-in-worker.ts): the activities put at their indexes. */
function apply(list: Activity[], messages: LoadMessage[]): void {
	for (const message of messages) if (message.kind === 'activities' || message.kind === 'changed activities') putActivities(list, message);
}

const posted = (messages: LoadMessage[]) => messages.flatMap(message => (message.kind === 'activities' || message.kind === 'changed activities' ? message.activities : []));

describe('the activities a load worker posts', () => {
	it('are each sent once, unless the reducer has replaced them since', () => {
		const lines = readFileSync(fixturePath('real/delegate.ndjson'), 'utf8').split('\n');
		const half = Math.floor(lines.length / 2);
		const messages: LoadMessage[] = [];
		const poster = new ActivitiesPosted(message => messages.push(message));

		const model = modelFromText(lines.slice(0, half).join('\n') + '\n');
		poster.postChanges(model.activities);
		const viewer: Activity[] = [];
		apply(viewer, messages);
		expect(viewer).toStrictEqual(model.activities);
		const first = [...model.activities];

		messages.length = 0;
		modelFromText(lines.slice(half).join('\n'), {model});
		poster.postChanges(model.activities);
		apply(viewer, messages);

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
		new ActivitiesPosted(message => messages.push(message)).postChanges(many);
		expect(messages.map(message => (message.kind === 'activities' ? [message.from, message.activities.length] : message.kind))).toStrictEqual([
			[0, 500],
			[500, 500],
			[1000, 200],
		]);
	});

	it('are followed by the rest of the model, without its activities', () => {
		const messages: LoadMessage[] = [];
		const model = modelFromText(readFileSync(fixturePath('real/delegate.ndjson')));
		new ActivitiesPosted(message => messages.push(message)).postModel(model, rest => ({kind: 'done', states: [], model: rest, exitCode: 0}));
		const last = messages.at(-1);
		expect(last?.kind).toBe('done');
		expect(last?.kind === 'done' && last.model.activities).toStrictEqual([]);
		expect(posted(messages)).toHaveLength(model.activities.length);
	});
});
