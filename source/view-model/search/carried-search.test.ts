import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath, modelFromText} from '../../../test/helpers/load.js';
import type {Model} from '../../model/state.js';
import {emptyFilter} from '../../query/filter.js';
import {findMatches} from '../../query/search.js';
import {shapeLines} from '../../../tools/shape-log.js';
import {Progress} from './progress.js';
import {Searches} from './searches.js';
import {Scheduler} from '../../slices/scheduler.js';
import {manualScheduler} from '../../../test/helpers/manual-scheduler.js';

/*
 * A search carried from one revision of a model changed in place to the next (a live stream read with the prompt
 * open) finds what a search in one go finds on that revision: a stream read line by line, the same queries asked
 * at each line, some lines with the search left part way.
 */

function linesOf(name: string): string[] {
	return readFileSync(fixturePath(name), 'utf8')
		.split('\n')
		.filter(line => line !== '');
}

const logs: Array<[string, string[]]> = [
	['streaming', linesOf('streaming.ndjson')],
	['parallel-delegate', linesOf('parallel-delegate.ndjson')],
	['nested-delegate reversed', [...linesOf('nested-delegate.ndjson')].reverse()],
	['retry', linesOf('retry.ndjson')],
	['tools', [...shapeLines({shape: 'tools', runs: 3, seed: 3})].filter(line => line !== '').slice(0, 400)],
];
// Some words only a tool's result or a run's answer brings, which come in a changed copy of an activity already there.
const queries = ['e', 'result', 'exec', 'deprecated', 'documents fetchall', 'zz-no-match'];

describe('a search carried from revision to revision', () => {
	for (const [name, lines] of logs) {
		it(`finds what a search in one go finds, at every line of ${name}`, () => {
			let model: Model | undefined;
			const searches = new Searches(new Scheduler(), new Progress());
			for (const [at, line] of lines.entries()) {
				model = modelFromText(`${line}\n`, model ? {model} : {});
				for (const query of queries) expect(searches.sharedMatches(model, query, emptyFilter), `line ${at}, ${query}`).toEqual(findMatches(model, query));
			}
		});
	}

	it('finds the same when a revision left its search part way (went on in slices, the model changed meanwhile)', () => {
		// More activities than a slice tests between two looks at the clock (256), so that a search is left part way.
		const lines = [...shapeLines({shape: 'tools', runs: 700, seed: 5})].filter(line => line !== '');
		const scheduler = manualScheduler({tick: 100, firstSlice: 1});
		const searches = new Searches(scheduler, new Progress());
		let model: Model | undefined;
		for (const [at, line] of lines.entries()) {
			model = modelFromText(`${line}\n`, model ? {model} : {});
			// Every other line, the search is asked and left to its slices; the model changes before they run, and they
			// go on into the activities the next line added: the next revision carries on from a search that saw more.
			if (at % 2 === 0) {
				searches.searchFor(model, 'e', emptyFilter);
				continue;
			}

			scheduler.runAll();
			expect(searches.sharedMatches(model, 'e', emptyFilter), `line ${at}`).toEqual(findMatches(model, 'e'));
		}
	});
});
