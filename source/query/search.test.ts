import {describe, expect, it} from 'vitest';
import {
	activityText,
	continueScan,
	findMatches,
	foldCase,
	highlightRanges,
	keptTextChars,
	maxFieldChars,
	narrows,
	prepareTexts,
	scanCovered,
	scanShare,
	startScan,
	stepKnown,
	stepMatch,
	textsFull,
} from './search.js';
import type {Activity, Model} from '../model/state.js';
import {modelFromFixtures, modelFromText, perstackLine} from '../../test/helpers/load.js';

const demo = modelFromFixtures('demo.ndjson');

function matched(model: Model, query: string): Activity[] {
	return findMatches(model, query).map(index => model.activities[index]!);
}

describe('what an activity can be found by', () => {
	it('paths, commands, queries, results, reasoning, errors, delegate queries, tool args and the expert', () => {
		expect(matched(demo, 'src/duration.ts').map(activity => activity.type)).toEqual(expect.arrayContaining(['readTextFile', 'editTextFile', 'delegate']));
		expect(matched(demo, 'npx vitest run').map(activity => activity.type)).toContain('exec');
		expect(matched(demo, 'CI is red on main').map(activity => activity.type)).toContain('query');
		expect(matched(demo, 'vitest: not found').map(activity => activity.type)).toContain('exec');
		expect(matched(demo, 'repo:acme/tiny-utils').map(activity => activity.type)).toContain('generalTool');
		expect(matched(demo, 'code-reader').map(activity => activity.expertKey)).toContain('code-reader');
		expect(matched(demo, 'No tool call generated').map(activity => activity.type)).toEqual(['retry']);
	});

	it('the reasoning behind an activity', () => {
		const withReasoning = demo.activities.find(activity => activity.reasoning !== undefined && activity.reasoning.length > 20);
		expect(withReasoning).toBeDefined();
		const phrase = withReasoning!.reasoning!.slice(0, 20);
		expect(findMatches(demo, phrase)).toContain(demo.activities.indexOf(withReasoning!));
	});

	it('an error activity by its name and message', () => {
		const model = modelFromFixtures('stop-error.ndjson');
		expect(matched(model, 'ai_apicallerror').map(activity => activity.type)).toEqual(['error']);
	});

	it('ignores case both ways, and a query never spans two fields', () => {
		expect(findMatches(demo, 'VITEST')).toEqual(findMatches(demo, 'vitest'));
		const exec = matched(demo, 'npm ci')[0]!;
		expect(activityText(exec)).not.toContain(`${exec.expertKey}\n${exec.type}`.toUpperCase());
		expect(findMatches(demo, `${exec.expertKey} ${exec.type}`)).toEqual([]);
	});

	it('an empty query matches nothing', () => {
		expect(findMatches(demo, '')).toEqual([]);
	});

	it('a query longer than any searched field matches nothing, and the search is over before it starts', () => {
		const query = 'a'.repeat(maxFieldChars + 1);
		expect(startScan(demo, query).done).toBe(true);
		expect(findMatches(demo, query)).toEqual([]);
	});
});

describe('the cached text follows activities as they change', () => {
	it('a tool result that arrives later becomes searchable', () => {
		const call = perstackLine('callTools', {
			newMessage: {contents: []},
			toolCalls: [{id: 'call-1', skillName: '@perstack/base', toolName: 'exec', args: {command: 'ls'}}],
		});
		const model = modelFromText(`${call}\n`);
		const activity = model.activities[0]!;
		expect(activity.type).toBe('exec');
		expect(findMatches(model, 'needle-in-result')).toEqual([]);
		const result = perstackLine('resolveToolResults', {
			toolResults: [{id: 'call-1', skillName: '@perstack/base', toolName: 'exec', result: [{type: 'textPart', id: 't', text: 'needle-in-result'}]}],
		});
		modelFromText(`${result}\n`, {model});
		// The activity is replaced, not changed: whoever held the old one (a cached search) still sees it as it was.
		expect(model.activities[0]).not.toBe(activity);
		expect(activity.type === 'exec' && activity.result).toBeUndefined();
		expect(findMatches(model, 'needle-in-result')).toEqual([0]);
	});

	it('a text made ahead of the search is made again when its activity changes', () => {
		const call = perstackLine('callTools', {
			newMessage: {contents: []},
			toolCalls: [{id: 'call-1', skillName: '@perstack/base', toolName: 'exec', args: {command: 'ls'}}],
		});
		const model = modelFromText(`${call}\n`);
		expect(prepareTexts(model, 0, () => false)).toBe(1);
		const result = perstackLine('resolveToolResults', {
			toolResults: [{id: 'call-1', skillName: '@perstack/base', toolName: 'exec', result: [{type: 'textPart', id: 't', text: 'needle-in-result'}]}],
		});
		modelFromText(`${result}\n`, {model});
		expect(findMatches(model, 'needle-in-result')).toEqual([0]);
	});

	it('a long field is searched up to its limit, not beyond', () => {
		const long = `${'x'.repeat(maxFieldChars)}beyond`;
		const model = modelFromText(`${perstackLine('retry', {reason: long})}\n`);
		expect(findMatches(model, 'xxxx')).toEqual([0]);
		expect(findMatches(model, 'beyond')).toEqual([]);
	});
});

describe('narrowing a search as the query grows', () => {
	it('searching within the previous matches gives the same result', () => {
		const before = findMatches(demo, 'test');
		expect(narrows('test', 'tests')).toBe(true);
		expect(findMatches(demo, 'tests', {within: before})).toEqual(findMatches(demo, 'tests'));
	});

	it('a query that does not hold the old one cannot narrow', () => {
		expect(narrows('test', 'tes')).toBe(false);
		expect(narrows('', 'x')).toBe(false);
	});

	it('include limits the search to what a filter shows', () => {
		const onlyLead = findMatches(demo, 'vitest', {include: activity => activity.expertKey === 'bugfix-lead'});
		expect(onlyLead.length).toBeGreaterThan(0);
		expect(onlyLead.every(index => demo.activities[index]!.expertKey === 'bugfix-lead')).toBe(true);
	});
});

describe('highlight ranges within a displayed line', () => {
	it('every occurrence, ignoring case, left to right, never overlapping', () => {
		expect(highlightRanges('Vitest runs vitest', 'VITEST')).toEqual([
			[0, 6],
			[12, 18],
		]);
		expect(highlightRanges('aaaa', 'aa')).toEqual([
			[0, 2],
			[2, 4],
		]);
	});

	it('ranges are in UTF-16 code units of the line as drawn', () => {
		const line = '⚡ exec 🖼 npm test';
		const [range] = highlightRanges(line, 'npm');
		expect(range).toBeDefined();
		expect(line.slice(range![0], range![1])).toBe('npm');
	});

	it('İ folds without shifting what follows it', () => {
		const line = 'İstanbul İzmir';
		const ranges = highlightRanges(line, 'izmir');
		expect(ranges).toEqual([[9, 14]]);
		expect(foldCase(line)).toHaveLength(line.length);
	});

	it('no match, or an empty query: no ranges', () => {
		expect(highlightRanges('npm test', 'yarn')).toEqual([]);
		expect(highlightRanges('npm test', '')).toEqual([]);
	});
});

describe('jumping between matches (n / N)', () => {
	const matches = [3, 8, 15];

	it('n goes to the next match after the current activity, N to the one before, wrapping around', () => {
		expect(stepMatch(matches, 8, 1)).toBe(15);
		expect(stepMatch(matches, 15, 1)).toBe(3);
		expect(stepMatch(matches, 8, -1)).toBe(3);
		expect(stepMatch(matches, 3, -1)).toBe(15);
	});

	it('from an activity that is not a match, the nearest one in that direction', () => {
		expect(stepMatch(matches, 9, 1)).toBe(15);
		expect(stepMatch(matches, 9, -1)).toBe(8);
		expect(stepMatch(matches, 0, -1)).toBe(15);
		expect(stepMatch(matches, 99, 1)).toBe(3);
	});

	it('with no current activity, the first or the last; with no matches, nothing', () => {
		expect(stepMatch(matches, undefined, 1)).toBe(3);
		expect(stepMatch(matches, undefined, -1)).toBe(15);
		expect(stepMatch([], 3, 1)).toBeUndefined();
	});
});

// How fast a keystroke is answered is measured by `npm run bench`, not here: timed unit tests fail on a loaded machine.
describe('a long log', () => {
	it('finds the one match among 100,000 activities, keystroke after keystroke', () => {
		const lines: string[] = [];
		for (let i = 0; i < 100_000; i++) {
			lines.push(
				perstackLine('callTools', {
					stepNumber: i + 1,
					newMessage: {contents: []},
					toolCalls: [{id: `c${i}`, skillName: '@perstack/base', toolName: 'readTextFile', args: {path: `src/module-${i}/index.ts`}}],
				}),
			);
		}

		const model = modelFromText(lines.join('\n'));
		expect(model.activities).toHaveLength(100_000);
		findMatches(model, 'warm the cache');
		let found: number[] = [];
		for (const query of ['m', 'mo', 'mod', 'modu', 'module-99', 'module-999', 'module-9999/']) found = findMatches(model, query);
		expect(found).toEqual([9999]);
	});
});

describe('a log whose texts pass what is kept of them (keptTextChars)', () => {
	it('a search made ahead to the limit still finds what lies past it, made as the search passes', () => {
		// Retries whose reasons are each nearly a field's limit: the kept texts fill a little past half-way.
		const reasonChars = maxFieldChars - 1024;
		const count = Math.ceil((keptTextChars * 1.6) / reasonChars);
		const lines: string[] = [];
		for (let i = 0; i < count; i++) lines.push(perstackLine('retry', {reason: `reason-${i}-end ${'y'.repeat(reasonChars)}`}));
		const model = modelFromText(`${lines.join('\n')}\n`);
		expect(model.activities).toHaveLength(count);
		const stoppedAt = prepareTexts(model, 0, () => false);
		expect(textsFull(model)).toBe(true);
		expect(stoppedAt).toBeLessThan(count);
		const last = count - 1;
		for (const index of [0, stoppedAt - 1, stoppedAt + 1, last]) expect(findMatches(model, `reason-${index}-end`), String(index)).toEqual([index]);
		// Twice: the texts past the limit are made again on each pass, not taken from a cache that kept them.
		expect(findMatches(model, `reason-${last}-end`)).toEqual([last]);
		expect(findMatches(model, 'reason-').length).toBe(count);
	});
});

/** A log of `count` reads, each of its own path, and a few with a shared word, loaded afresh on each call. */
function readsLog(count: number): Model {
	const lines: string[] = [];
	for (let i = 0; i < count; i++) {
		const path = i % 7 === 0 ? `src/shared-${i}/index.ts` : `src/module-${i}/index.ts`;
		lines.push(
			perstackLine('callTools', {
				stepNumber: i + 1,
				newMessage: {contents: []},
				toolCalls: [{id: `c${i}`, skillName: '@perstack/base', toolName: 'readTextFile', args: {path}}],
			}),
		);
	}

	return modelFromText(lines.join('\n'));
}

describe('texts made ahead of a search', () => {
	const queries = ['module-1', 'shared', 'SHARED-7', 'index.ts', 'read', 'nothing-like-this'];
	const expected = (() => {
		const model = readsLog(1000);
		return new Map(queries.map(query => [query, findMatches(model, query)]));
	})();

	it('stops when asked, says where, and goes on from there to the end', () => {
		const model = readsLog(1000);
		let asked = 0;
		const stoppedAt = prepareTexts(model, 0, () => ++asked === 2);
		expect(stoppedAt).toBeGreaterThan(0);
		expect(stoppedAt).toBeLessThan(1000);
		expect(prepareTexts(model, stoppedAt, () => false)).toBe(1000);
		expect(prepareTexts(model, 1000, () => false)).toBe(1000);
	});

	it('a search started before the texts are all made finds what it finds with none made ahead, and so does one after', () => {
		for (const from of [0, 1, 500, 990]) {
			const model = readsLog(1000);
			// Made for a stretch in the middle only: the search makes the rest itself.
			prepareTexts(model, from, () => true);
			for (const query of queries) expect(findMatches(model, query), `${query} from ${from}`).toEqual(expected.get(query));
			prepareTexts(model, 0, () => false);
			for (const query of queries) expect(findMatches(model, query), `${query} after all, from ${from}`).toEqual(expected.get(query));
		}

		expect(expected.get('shared')).toHaveLength(Math.ceil(1000 / 7));
	});

	it('a pass the model changed under (a result arriving between two slices) leaves the changed text to be made again', () => {
		const model = readsLog(300);
		const stoppedAt = prepareTexts(model, 0, () => true);
		expect(stoppedAt).toBeLessThan(300);
		const result = perstackLine('resolveToolResults', {
			toolResults: [{id: 'c0', skillName: '@perstack/base', toolName: 'readTextFile', result: [{type: 'textPart', id: 't', text: 'needle-late'}]}],
		});
		modelFromText(`${result}\n`, {model});
		expect(prepareTexts(model, stoppedAt, () => false)).toBe(300);
		expect(findMatches(model, 'needle-late')).toEqual([0]);
		// Searched in full once more at this revision: now every text is known to be current, and still found.
		expect(findMatches(model, 'needle-late')).toEqual([0]);
		expect(findMatches(model, 'needle', {within: [0, 5]})).toEqual([0]);
	});

	it('a pass with a gap (begun again further on) leaves the texts in the gap to the search', () => {
		const model = readsLog(1000);
		expect(prepareTexts(model, 0, () => true)).toBeLessThan(500);
		expect(prepareTexts(model, 500, () => false)).toBe(1000);
		expect(findMatches(model, 'module-250/')).toEqual([250]);
		expect(findMatches(model, 'shared')).toEqual(expected.get('shared'));
	});
});

describe('a search in slices', () => {
	const queries = ['module-1', 'shared', 'SHARED-7', 'index.ts', 'read', 'nothing-like-this'];
	const expected = (() => {
		const model = readsLog(1000);
		return new Map(queries.map(query => [query, findMatches(model, query)]));
	})();

	it('stopped anywhere and gone on with, finds exactly what a search in one go finds, its matches so far always the first ones', () => {
		for (const every of [1, 2, 3]) {
			for (const [madeAhead, query] of queries.map((query, at) => [at * 150, query] as const)) {
				const model = readsLog(1000);
				// Texts made ahead for some of the activities only, as when a search starts while they are made.
				prepareTexts(model, 0, chars => chars > madeAhead * 20);
				const scan = startScan(model, query);
				let asked = 0;
				let slices = 1;
				while (!continueScan(model, scan, () => ++asked % every === 0)) {
					const all = expected.get(query)!;
					expect(scan.matches).toEqual(all.filter(index => index < scanCovered(scan)));
					expect(scanShare(scan, 1000)).toBeLessThan(1);
					slices++;
				}

				expect(scan.matches, `${query}, a stop every ${every}`).toEqual(expected.get(query));
				expect(scanShare(scan, 1000)).toBe(1);
				expect(slices).toBeGreaterThan(1);
			}
		}
	});

	it('a query narrowing an earlier search stopped part way searches its matches so far, then the rest, and finds the same', () => {
		const model = readsLog(1000);
		const earlier = startScan(model, 'module-1');
		expect(continueScan(model, earlier, () => true)).toBe(false);
		const covered = scanCovered(earlier);
		expect(covered).toBeGreaterThan(0);
		expect(covered).toBeLessThan(1000);
		const narrower = startScan(model, 'module-12', {within: {matches: earlier.matches, end: covered}});
		// The earlier one goes on meanwhile (deleting back to it): the narrower one reads only what it had found.
		continueScan(model, earlier);
		expect(earlier.matches).toEqual(findMatches(readsLog(1000), 'module-1'));
		while (!continueScan(model, narrower, () => true));
		expect(narrower.matches).toEqual(findMatches(readsLog(1000), 'module-12'));
		expect(narrower.tested).toBeLessThan(1000);
	});

	it('activities that arrive while it runs are searched too', () => {
		const model = readsLog(500);
		const scan = startScan(model, 'index.ts');
		expect(continueScan(model, scan, () => true)).toBe(false);
		const more = readsLog(700);
		modelFromText(
			more.activities
				.slice(500)
				.map((_activity, at) =>
					perstackLine('callTools', {
						stepNumber: 501 + at,
						newMessage: {contents: []},
						toolCalls: [{id: `late${at}`, skillName: '@perstack/base', toolName: 'readTextFile', args: {path: `src/late-${at}/index.ts`}}],
					}),
				)
				.join('\n'),
			{model},
		);
		expect(model.activities).toHaveLength(700);
		continueScan(model, scan);
		expect(scan.matches).toEqual(findMatches(model, 'index.ts'));
		expect(scan.matches).toHaveLength(700);
	});

	it('n / N answer at once where the matches found so far tell, and wait where they do not', () => {
		const model = readsLog(1000);
		const all = findMatches(model, 'shared');
		const scan = startScan(model, 'shared');
		continueScan(model, scan, () => true);
		const covered = scanCovered(scan);
		const lastFound = scan.matches.at(-1)!;
		expect(stepKnown(scan, undefined, 1)).toBe(all[0]);
		expect(stepKnown(scan, 0, 1)).toBe(stepMatch(all, 0, 1));
		// Past the last match found, the next one is not known yet; nor is the last one (N from the top wraps).
		expect(stepKnown(scan, lastFound, 1)).toBe('wait');
		expect(stepKnown(scan, undefined, -1)).toBe('wait');
		expect(stepKnown(scan, lastFound, -1)).toBe(stepMatch(all, lastFound, -1));
		expect(stepKnown(scan, covered + 10, -1)).toBe('wait');
		// The first match, going back, wraps round to the last: known only at the end.
		expect(stepKnown(scan, all[0], -1)).toBe('wait');
		continueScan(model, scan);
		expect(stepKnown(scan, lastFound, 1)).toBe(stepMatch(all, lastFound, 1));
		expect(stepKnown(scan, all[0], -1)).toBe(all.at(-1));
		expect(stepKnown(scan, all.at(-1), 1)).toBe(all[0]);
		const none = startScan(model, 'nothing-like-this');
		continueScan(model, none);
		expect(stepKnown(none, 3, 1)).toBeUndefined();
	});
});
