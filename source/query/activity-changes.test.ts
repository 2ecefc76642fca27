import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath, modelFromText} from '../../test/helpers/load.js';
import {shapeLines} from '../../tools/shape-log.js';
import type {Activity, Model} from '../model/state.js';
import {changedSince, markActivities, type ActivitiesMark} from './activity-changes.js';

/*
 * The activities' tracker tells what changed in a model changed in place (a live stream read line by line) since
 * any earlier mark, old or recent: exactly the slots whose activity is another object, as a copy kept at the mark
 * says.
 */

function linesOf(name: string): string[] {
	return readFileSync(fixturePath(name), 'utf8')
		.split('\n')
		.filter(line => line !== '');
}

/** The reference: the slots below the copy's length whose object is not the copy's. */
function changedFromCopy(model: Model, copy: readonly Activity[]): number[] {
	const changed: number[] = [];
	for (let index = 0; index < copy.length; index++) if (model.activities[index] !== copy[index]) changed.push(index);
	return changed;
}

describe('the activities changed since a mark', () => {
	const logs: Array<[string, string[]]> = [
		['nested-delegate', linesOf('nested-delegate.ndjson')],
		['parallel-delegate', linesOf('parallel-delegate.ndjson')],
		['tools', [...shapeLines({shape: 'tools', runs: 3, seed: 3})].filter(line => line !== '').slice(0, 300)],
	];
	for (const [name, lines] of logs) {
		it(`are exactly the slots whose activity is another object, for marks of any age, at every line of ${name}`, () => {
			let model: Model | undefined;
			// Marks made every few lines and kept, asked again at every later line (a filter applied again much later).
			const marks: Array<{mark: ActivitiesMark; copy: Activity[]; at: number}> = [];
			let changedSome = false;
			for (const [at, line] of lines.entries()) {
				model = modelFromText(`${line}\n`, model ? {model} : {});
				for (const {mark, copy, at: made} of marks) {
					const expected = changedFromCopy(model, copy);
					changedSome ||= expected.length > 0;
					expect(changedSince(model, mark), `line ${at}, mark of line ${made}`).toEqual(expected);
				}

				if (at % 3 !== 0) continue;
				const mark = markActivities(model);
				// The array's first revision asked gives no mark: it may be a load's post, never changed in place.
				if (marks.length === 0 && at === 0) expect(mark).toBeUndefined();
				if (mark) {
					expect(mark.length).toBe(model.activities.length);
					marks.push({mark, copy: [...model.activities], at});
				}
			}

			expect(marks.length).toBeGreaterThan(2);
			expect(changedSome).toBe(true);
		});
	}

	it('a mark of another activities array, or of an array that since shrank, tells nothing', () => {
		const lines = linesOf('streaming.ndjson');
		const model = modelFromText(`${lines.slice(0, 10).join('\n')}\n`);
		markActivities(model);
		modelFromText(`${lines[10]}\n`, {model});
		const mark = markActivities(model)!;
		expect(mark).toBeDefined();
		const other = modelFromText(`${lines.slice(0, 11).join('\n')}\n`);
		expect(changedSince(other, mark)).toBeUndefined();
		model.activities.length = Math.max(0, mark.length - 1);
		model.rev++;
		expect(changedSince(model, mark)).toBeUndefined();
	});
});
