import {readFileSync} from 'node:fs';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {fixturePath, modelFromText} from '../../../test/helpers/load.js';
import type {Model} from '../../model/state.js';
import {emptyFilter, filterMatches, parseFilter, type Filter} from '../../query/filter.js';
import {findMatches, stepMatch} from '../../query/search.js';
import {shapeLines} from '../../../tools/shape-log.js';
import {ViewerWork} from '../viewer-work.js';
import {manualScheduler} from '../../../test/helpers/manual-scheduler.js';

/*
 * The search in slices against the search in one go (`findMatches`): for fixtures and generated shapes, a query
 * typed key by key (and deleted back) with any number of slices between keys, while the texts are made ahead
 * and while the model grows, ends with exactly the matches a search in one go finds on the final model.
 */

const fixtures = [
	'demo.ndjson',
	'nested-delegate.ndjson',
	'parallel-delegate.ndjson',
	'delegate-failure.ndjson',
	'streaming.ndjson',
	'retry.ndjson',
	'real/tools.ndjson',
];
const fixtureLines = new Map(
	fixtures.map(name => [
		name,
		readFileSync(fixturePath(name), 'utf8')
			.split('\n')
			.filter(line => line !== ''),
	]),
);

function filterOf(text: string): Filter {
	const parsed = parseFilter(text);
	if (!parsed.ok) throw new Error(parsed.error);
	return parsed.filter;
}

const filters = [emptyFilter, filterOf('type:exec'), filterOf('-errors'), filterOf('test')];

/** A log's lines: fixtures together, or a shape large enough for a search to take several slices. */
const logs = fc.oneof(
	fc.subarray(fixtures, {minLength: 1, maxLength: 3}).map(names => names.flatMap(name => fixtureLines.get(name)!)),
	fc
		.record({
			shape: fc.constantFrom('tools' as const, 'wide' as const, 'chain' as const),
			runs: fc.integer({min: 200, max: 900}),
			seed: fc.integer({min: 1, max: 1000}),
		})
		.map(options => [...shapeLines(options)]),
);

/** Queries typed key by key: words that occur in logs like these, and one that never does. */
const queries = fc.constantFrom('run-1', 'exec', 'EXPERT-2', 'test', 'done', 'query of', 'grep', 'nothing-like-this', 'e');

function load(lines: string[], model?: Model): Model {
	return modelFromText(lines.join('\n') + '\n', model ? {model} : {});
}

describe('a search in slices', () => {
	it('ends with what a search in one go finds, typed key by key, with slices between keys, texts made ahead and the model growing', () => {
		fc.assert(
			fc.property(
				logs,
				queries,
				fc.constantFrom(...filters),
				fc.array(fc.integer({min: 0, max: 3}), {minLength: 1, maxLength: 20}),
				fc.double({min: 0.2, max: 1, noNaN: true}),
				fc.boolean(),
				(lines, query, filter, between, cut, ahead) => {
					const split = Math.max(1, Math.ceil(lines.length * cut));
					const model = load(lines.slice(0, split));
					const scheduler = manualScheduler({tick: 100, firstSlice: 0});
					const work = new ViewerWork(scheduler);
					if (ahead) work.texts.prepare(model, () => false);
					// Typed key by key, then deleted back two keys and typed again: kept searches are taken up again.
					const typed = [...query].map((_key, at) => query.slice(0, at + 1));
					const keys = [...typed, ...typed.slice(-3, -1).reverse(), query];
					let grown = split === lines.length;
					for (const [at, text] of keys.entries()) {
						work.searches.searchFor(model, text, filter);
						scheduler.runSome(between[at % between.length]!);
						if (!grown && at === Math.floor(keys.length / 2)) {
							load(lines.slice(split), model);
							grown = true;
						}
					}

					if (!grown) load(lines.slice(split), model);
					const fresh = load(lines);
					const shown = filter === emptyFilter ? undefined : filterMatches(fresh, filter).shown;
					const include = shown ? {include: (_activity: unknown, index: number) => shown[index] === 1} : {};
					for (const text of new Set(keys)) {
						// As the views do on the next frame: ask for the search of the model as it is now.
						const scan = work.searches.searchFor(model, text, filter);
						scheduler.runAll();
						expect(scan.done).toBe(true);
						expect(scan.matches, text).toEqual(findMatches(fresh, text, include));
					}
				},
			),
			{numRuns: 60},
		);
	});

	it('n / N asked while the search runs land where they land after a search in one go', () => {
		fc.assert(
			fc.property(
				logs,
				queries,
				fc.integer({min: 0, max: 2000}),
				fc.constantFrom<1 | -1>(1, -1),
				fc.integer({min: 0, max: 5}),
				(lines, query, from, direction, slices) => {
					const model = load(lines);
					// The search in one go on the model before anything else reads it: what a fresh load of the lines gives.
					const all = findMatches(model, query);
					const scheduler = manualScheduler({tick: 100, firstSlice: 0});
					const work = new ViewerWork(scheduler);
					work.searches.searchFor(model, query, emptyFilter);
					scheduler.runSome(slices);
					const landed: Array<number | undefined> = [];
					work.searches.jumpWhenFound(
						model,
						query,
						emptyFilter,
						from,
						direction,
						index => landed.push(index),
						() => landed.push(undefined),
					);
					scheduler.runAll();
					expect(landed).toEqual([stepMatch(all, from, direction)]);
				},
			),
			{numRuns: 60},
		);
	});
});
