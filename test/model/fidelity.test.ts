import {describe, expect, it} from 'vitest';
import {activitiesOfRun, modelFromFixtures, runByExpert} from '../helpers/load.js';

/*
 * Where perscope disagreed with the real Perstack runtime (#21). Each case is named after what was wrong.
 */

describe('reasoning is the reasoning of the generation it was produced in (#21.1)', () => {
	const model = modelFromFixtures('real/tools.ndjson');
	const activities = activitiesOfRun(model, runByExpert(model, 'tools-expert'));
	const finalCall = activities.filter(activity => activity.type === 'attemptCompletion').at(-1)!;
	const complete = activities.find(activity => activity.type === 'complete')!;

	it('reasoning streamed after the accepted attemptCompletion belongs to complete only', () => {
		expect(complete.reasoning).toMatch(/^All the work is done; I should summarise/);
		// That call's message had no thinking part: the model gave no reasoning for it.
		expect(finalCall.reasoning).toBeUndefined();
	});

	it('a tool call keeps the thinking of its own message, even when the stream of it comes after the call', () => {
		const exec = activities.find(activity => activity.type === 'exec')!;
		expect(exec.reasoning).toMatch(/^The missing file errored as expected/);
	});

	it('a step whose message had no thinking part shows no reasoning', () => {
		const step5 = activities.filter(activity => activity.step === 5);
		expect(step5.map(activity => activity.type)).toEqual(['appendTextFile', 'todo']);
		expect(step5.every(activity => activity.reasoning === undefined)).toBe(true);
	});
});
