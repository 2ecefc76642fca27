import {describe, expect, it} from 'vitest';
import {
	continueFilterScan,
	describeFilter,
	emptyFilter,
	filterMatches,
	filterText,
	isErrorActivity,
	matches,
	parseFilter,
	showsErrorsOnly,
	startFilterScan,
	toggleErrors,
	type Filter,
} from './filter.js';
import {endInput, type Activity, type Model} from '../model/state.js';
import {readFileSync} from 'node:fs';
import {fixturePath, modelFromFixtures, modelFromText, perstackLine, runByExpert} from '../../test/helpers/load.js';

function parsed(text: string): Filter {
	const result = parseFilter(text);
	if (!result.ok) throw new Error(`expected "${text}" to parse: ${result.error}`);
	return result.filter;
}

function errorOf(text: string): string {
	const result = parseFilter(text);
	if (result.ok) throw new Error(`expected "${text}" to be rejected`);
	return result.error;
}

/** Indices of the activities the filter shows (arrival order), as the viewer's scan finds them, and how many it hides. */
function applyFilter(model: Model, filter: Filter): {shown: number[]; hidden: number} {
	const scan = startFilterScan(model, filter);
	expect(continueFilterScan(model, scan)).toBe(true);
	const shown: number[] = [];
	for (let index = 0; index < scan.shown.length; index++) if (scan.shown[index] === 1) shown.push(index);
	expect(scan.shownCount).toBe(shown.length);
	return {shown, hidden: model.activities.length - shown.length};
}

function shown(model: Model, text: string): Activity[] {
	return applyFilter(model, parsed(text)).shown.map(index => model.activities[index]!);
}

const demo = modelFromFixtures('demo.ndjson');

function fixtureLines(name: string): string[] {
	return readFileSync(fixturePath(name), 'utf8')
		.split('\n')
		.filter(line => line !== '');
}

describe('parsing the filter language', () => {
	it('an empty filter (or only spaces) has no clauses and shows everything', () => {
		expect(parsed('').clauses).toEqual([]);
		expect(parsed('   ').clauses).toEqual([]);
		expect(applyFilter(demo, emptyFilter).hidden).toBe(0);
	});

	it('reads each kind of term', () => {
		expect(parsed('type:exec,readTextFile').clauses).toEqual([{term: {kind: 'type', types: ['exec', 'readTextFile']}, negated: false}]);
		expect(parsed('expert:helper-1').clauses[0]?.term).toMatchObject({kind: 'expert', experts: ['helper-1']});
		expect(parsed('run:k3f9').clauses[0]?.term).toEqual({kind: 'run', prefix: 'k3f9'});
		expect(parsed('errors').clauses[0]?.term).toEqual({kind: 'errors'});
		expect(parsed('step:7').clauses[0]?.term).toEqual({kind: 'step', from: 7, to: 7});
		expect(parsed('step:10-20').clauses[0]?.term).toEqual({kind: 'step', from: 10, to: 20});
		expect(parsed('step:10-').clauses[0]?.term).toEqual({kind: 'step', from: 10, to: undefined});
		expect(parsed('step:-20').clauses[0]?.term).toEqual({kind: 'step', from: undefined, to: 20});
		expect(parsed('vitest').clauses[0]?.term).toMatchObject({kind: 'text', text: 'vitest'});
	});

	it('type names are matched ignoring case', () => {
		expect(parsed('type:EXEC,readtextfile').clauses[0]?.term).toEqual({kind: 'type', types: ['exec', 'readTextFile']});
	});

	it('quoted text is one term, with \\" and \\\\ as escapes, and is never a keyword', () => {
		expect(parsed('"two words"').clauses[0]?.term).toMatchObject({kind: 'text', text: 'two words'});
		expect(parsed('"say \\"hi\\" \\\\o/"').clauses[0]?.term).toMatchObject({kind: 'text', text: 'say "hi" \\o/'});
		expect(parsed('"errors"').clauses[0]?.term).toMatchObject({kind: 'text', text: 'errors'});
		expect(parsed('"type:exec"').clauses[0]?.term).toMatchObject({kind: 'text', text: 'type:exec'});
		expect(parsed('expert:"a b"').clauses[0]?.term).toMatchObject({kind: 'expert', experts: ['a b']});
	});

	it('a leading - negates any term, quoted ones too', () => {
		expect(parsed('-type:todo -errors -"two words"').clauses.map(clause => clause.negated)).toEqual([true, true, true]);
	});

	it('several terms are all kept, in order', () => {
		expect(parsed('type:exec expert:test-runner vitest').clauses.map(clause => clause.term.kind)).toEqual(['type', 'expert', 'text']);
	});
});

describe('bad filters are rejected with a message that says how to fix them', () => {
	it('an unknown key names the known ones and how to search for the text instead', () => {
		const error = errorOf('tpye:exec');
		expect(error).toContain('unknown filter "tpye:"');
		expect(error).toContain('type:, expert:, run:, step:');
		expect(error).toContain('"tpye:exec"');
	});

	it('an unknown activity type lists the known types', () => {
		const error = errorOf('type:exce');
		expect(error).toContain('unknown activity type "exce"');
		expect(error).toContain('readTextFile');
	});

	it('a key without a value', () => {
		expect(errorOf('type:')).toContain('"type:" needs a value');
		expect(errorOf('expert:')).toContain('expert:helper-1');
	});

	it('an empty item in a list', () => {
		expect(errorOf('type:exec,,todo')).toContain('empty item');
	});

	it('a step that is not a number or a range, or a range that runs backwards', () => {
		expect(errorOf('step:abc')).toContain('not a step or a range');
		expect(errorOf('step:-')).toContain('not a step or a range');
		expect(errorOf('step:1-2-3')).toContain('not a step or a range');
		expect(errorOf('step:20-10')).toContain('write step:10-20');
	});

	it('an unclosed quote, an empty quote, and a lone -', () => {
		expect(errorOf('"two words')).toContain('unclosed quote');
		expect(errorOf('""')).toContain('empty');
		expect(errorOf('type:exec - errors')).toContain('lone "-"');
	});
});

describe('matching activities', () => {
	it('type: keeps the listed types only', () => {
		const types = new Set(shown(demo, 'type:exec,readTextFile').map(activity => activity.type));
		expect([...types].sort()).toEqual(['exec', 'readTextFile']);
	});

	it('expert: keeps one expert (ignoring case), or any of a list', () => {
		expect(new Set(shown(demo, 'expert:Test-Runner').map(activity => activity.expertKey))).toEqual(new Set(['test-runner']));
		expect(new Set(shown(demo, 'expert:test-runner,code-reader').map(activity => activity.expertKey))).toEqual(new Set(['test-runner', 'code-reader']));
	});

	it('expert: matches real keys, which carry versions and scopes, by name (#21.9)', () => {
		const versioned = modelFromText(
			readFileSync(fixturePath('real/delegate.ndjson'), 'utf8').replaceAll('"expertKey":"child-expert"', '"expertKey":"@acme/child-expert@1.2.0"'),
		);
		const keys = (text: string) => new Set(shown(versioned, text).map(activity => activity.expertKey));
		for (const name of ['child-expert', 'Child-Expert', '@acme/child-expert', 'child-expert@1.2.0', '@acme/child-expert@1.2.0']) {
			expect(keys(`expert:${name}`)).toEqual(new Set(['@acme/child-expert@1.2.0']));
		}

		expect(keys('expert:child-expert@9.9.9')).toEqual(new Set());
		expect(keys('expert:@other/child-expert')).toEqual(new Set());
		expect(keys('expert:child')).toEqual(new Set());
	});

	it('run: keeps a run by id prefix, and the first run id names its whole pane (the resumed coordinator too)', () => {
		const lead = runByExpert(demo, 'bugfix-lead', 0);
		const resumed = runByExpert(demo, 'bugfix-lead', 1);
		const activities = shown(demo, `run:${lead.runId.slice(0, 6)}`);
		expect(new Set(activities.map(activity => activity.runId))).toEqual(new Set([lead.runId, resumed.runId]));
		expect(new Set(shown(demo, `run:${resumed.runId}`).map(activity => activity.runId))).toEqual(new Set([resumed.runId]));
	});

	it('errors keeps error activities and tool calls whose result is an error', () => {
		const activities = shown(demo, 'errors');
		expect(activities.map(activity => activity.type)).toEqual(['exec']);
		expect(activities.every(isErrorActivity)).toBe(true);
		const stopped = modelFromFixtures('stop-error.ndjson');
		expect(shown(stopped, 'errors').map(activity => activity.type)).toEqual(['error']);
	});

	it('errors includes, once the input has ended, runs that ended without a final event and jobs that ended while waiting', () => {
		const ended = (model: Model) => {
			endInput(model, {exitCode: undefined, lastStderr: undefined});
			return model;
		};

		const describe = (activity: Activity) => `${activity.expertKey} ${activity.type}${activity.type === 'delegate' ? ` ${activity.delegateExpertKey}` : ''}`;
		// real/delegate.ndjson cut while the child runs: while the input may go on, nothing is an error.
		const cut = fixtureLines('real/delegate.ndjson').slice(0, 20).join('\n');
		expect(shown(modelFromText(cut), 'errors')).toEqual([]);
		// Once it ended: where the child was cut off, and the delegation the coordinator waited on.
		expect(shown(ended(modelFromText(cut)), 'errors').map(describe)).toEqual(['coordinator delegate child-expert', 'child-expert readTextFile']);
		// Other terms still hold: only the child's.
		expect(shown(ended(modelFromText(cut)), 'errors expert:child-expert').map(describe)).toEqual(['child-expert readTextFile']);

		// One of two parallel delegates failed and the job ended there: its error, and the delegation to it (not the other's).
		expect(shown(ended(modelFromFixtures('delegate-failure.ndjson')), 'errors').map(describe)).toEqual([
			'release-coordinator delegate changelog-writer',
			'changelog-writer error',
		]);

		// boss → manager → writer ∥ checker cut while writer runs: writer's last activity, manager's delegation to
		// it, and boss's last (its delegation to manager, which ended while waiting in turn).
		const nested = fixtureLines('real/boss-nested-parallel.ndjson').slice(0, 72).join('\n');
		expect(shown(ended(modelFromText(nested)), 'errors').map(describe)).toEqual(['boss delegate manager', 'manager delegate writer', 'writer writeTextFile']);
		// A log that ended well has none.
		expect(shown(ended(modelFromFixtures('real/boss-nested-parallel.ndjson')), 'errors')).toEqual([]);
	});

	it('step: keeps a step or an inclusive range; activities without a step never match', () => {
		expect(shown(demo, 'step:5').every(activity => activity.step === 5)).toBe(true);
		const range = shown(demo, 'step:5-6');
		expect(new Set(range.map(activity => activity.step))).toEqual(new Set([5, 6]));
		expect(shown(demo, 'step:-2').every(activity => activity.step !== undefined && activity.step <= 2)).toBe(true);
	});

	it('free text searches paths, commands, queries and results, ignoring case', () => {
		expect(shown(demo, 'DURATION.TS').length).toBeGreaterThan(0);
		expect(shown(demo, 'vitest').some(activity => activity.type === 'exec')).toBe(true);
		expect(shown(demo, '"whole hours"').map(activity => activity.type)).toContain('delegate');
	});

	it('terms combine with AND, and - negates', () => {
		const execs = shown(demo, 'type:exec expert:test-runner');
		expect(execs.length).toBeGreaterThan(0);
		expect(execs.every(activity => activity.type === 'exec' && activity.expertKey === 'test-runner')).toBe(true);
		const notTodo = shown(demo, '-type:todo');
		expect(notTodo.some(activity => activity.type === 'todo')).toBe(false);
		expect(notTodo.length + shown(demo, 'type:todo').length).toBe(demo.activities.length);
	});

	it('hidden activities are counted, not lost', () => {
		const {shown: kept, hidden} = applyFilter(demo, parsed('type:exec'));
		expect(kept.length + hidden).toBe(demo.activities.length);
		expect(kept).toEqual([...kept].sort((a, b) => a - b));
	});

	it('matches() agrees with the scan activity by activity', () => {
		const filter = parsed('-type:todo step:1-8');
		const expected = demo.activities.map(activity => matches(filter, activity, demo));
		const indices = new Set(applyFilter(demo, filter).shown);
		expect(demo.activities.map((_activity, index) => indices.has(index))).toEqual(expected);
	});
});

describe('writing a filter back out', () => {
	it('the canonical text reads back to the same filter', () => {
		for (const text of [
			'type:exec,readTextFile expert:helper-1 run:ab12 errors step:10-20 step:7 step:3- step:-4',
			'"two words" -"errors" -vitest "-dash" "type:exec" "say \\"hi\\""',
			'expert:"a b",c -run:x',
		]) {
			const filter = parsed(text);
			expect(parsed(filterText(filter))).toEqual(filter);
		}
	});

	it('describeFilter is the canonical text, safe for the header', () => {
		expect(describeFilter(parsed('TYPE:exec   errors  "two words"'))).toBe('type:exec errors "two words"');
		expect(describeFilter(parsed('"\u001b[31mred"'))).not.toContain('\u001b');
		expect(describeFilter(emptyFilter)).toBe('');
	});
});

describe('the errors key (x)', () => {
	it('adds errors to the filter, and takes it out again', () => {
		const base = parsed('type:exec');
		const on = toggleErrors(base);
		expect(showsErrorsOnly(on)).toBe(true);
		expect(filterText(on)).toBe('type:exec errors');
		const off = toggleErrors(on);
		expect(showsErrorsOnly(off)).toBe(false);
		expect(filterText(off)).toBe('type:exec');
	});

	it('leaves a `-errors` the person wrote alone: x adds errors beside it, and x again gives their filter back', () => {
		const hidingErrors = parsed('-errors type:exec');
		expect(showsErrorsOnly(hidingErrors)).toBe(false);
		const on = toggleErrors(hidingErrors);
		expect(filterText(on)).toBe('-errors type:exec errors');
		expect(showsErrorsOnly(on)).toBe(true);
		expect(filterText(toggleErrors(on))).toBe('-errors type:exec');
	});
});

/** `count` reads, every third with an error result, for a filter worked in slices. */
function readLines(from: number, count: number): string[] {
	const lines: string[] = [];
	for (let i = from; i < from + count; i++) {
		lines.push(
			perstackLine('callTools', {
				stepNumber: i + 1,
				newMessage: {contents: []},
				toolCalls: [
					{id: `c${i}`, skillName: '@perstack/base', toolName: 'readTextFile', args: {path: i % 5 === 0 ? `src/shared-${i}.ts` : `src/module-${i}.ts`}},
				],
			}),
		);
	}

	return lines;
}

function resultLine(i: number, error: boolean): string {
	return perstackLine('resolveToolResults', {
		toolResults: [
			{
				id: `c${i}`,
				skillName: '@perstack/base',
				toolName: 'readTextFile',
				result: [{type: 'textPart', id: `t${i}`, text: error ? 'Error: no such file' : `late-text-${i}`}],
			},
		],
	});
}

describe("a filter worked out in slices (a filter's Enter over a large log)", () => {
	const filters = ['shared', 'errors', '-errors shared', 'step:10-400', 'late-text', 'type:readTextFile -shared', 'nothing-like-this'];

	it('ends with exactly the bitmap worked out in one go, in slices of any size', () => {
		for (const text of filters) {
			const model = modelFromText(readLines(0, 1500).join('\n'));
			const whole = matchesOf(model, parsed(text));
			for (const slices of [1, 3, 40]) {
				const fresh = modelFromText(readLines(0, 1500).join('\n'));
				const scan = startFilterScan(fresh, parsed(text));
				let asked = 0;
				let steps = 0;
				while (!continueFilterScan(fresh, scan, () => ++asked % slices === 0)) steps++;
				if (slices === 1) expect(steps).toBeGreaterThan(0);
				expect({text, slices, shown: [...scan.matches!.shown], count: scan.matches!.shownCount}).toEqual({
					text,
					slices,
					shown: whole.shown,
					count: whole.count,
				});
			}
		}
	});

	it('the model growing and changing between slices gives the bitmap of the model it ends on', () => {
		for (const text of filters) {
			const model = modelFromText(readLines(0, 1500).join('\n'));
			const scan = startFilterScan(model, parsed(text));
			expect(continueFilterScan(model, scan, () => true)).toBe(false);
			// New activities, and results that turn earlier calls (some already tested) into errors.
			modelFromText(`${[...readLines(1500, 700), resultLine(0, true), resultLine(3, true), resultLine(7, false)].join('\n')}\n`, {model});
			expect(continueFilterScan(model, scan, () => true)).toBe(false);
			modelFromText(`${[resultLine(1200, true), ...readLines(2200, 10)].join('\n')}\n`, {model});
			while (!continueFilterScan(model, scan, () => true));
			const whole = matchesOf(model, parsed(text));
			expect({text, shown: [...scan.matches!.shown], count: scan.matches!.shownCount}).toEqual({text, shown: whole.shown, count: whole.count});
		}
	});
});

describe('a filtered tree of a live stream (the model growing in place, revision after revision)', () => {
	it("gives each revision exactly a fresh scan's matches, though it carries on from the last revision's", () => {
		for (const text of ['shared', 'errors', '-errors shared', 'step:10-400', 'late-text', 'type:readTextFile -shared', 'run:run-1', 'errors run:run-1']) {
			const filter = parsed(text);
			const model = modelFromText(readLines(0, 1500).join('\n'));
			const grown = [
				[...readLines(1500, 700), resultLine(0, true), resultLine(3, true), resultLine(7, false)],
				[resultLine(1200, true), ...readLines(2200, 10)],
				[resultLine(5, false), resultLine(2205, true), ...readLines(2210, 5)],
				[resultLine(10, true), resultLine(2201, false)],
			];
			expect(filterMatches(model, filter).shownCount).toBe(matchesOf(model, filter).count);
			for (const lines of grown) {
				modelFromText(`${lines.join('\n')}\n`, {model});
				const {shown, shownCount} = filterMatches(model, filter);
				expect({text, shown: [...shown], count: shownCount}).toEqual({text, ...matchesOf(model, filter)});
			}

			// The input's end marks the runs it left unfinished: `errors` then asks more than the activity.
			endInput(model, {exitCode: undefined, lastStderr: undefined});
			const {shown, shownCount} = filterMatches(model, filter);
			expect({text, shown: [...shown], count: shownCount}).toEqual({text, ...matchesOf(model, filter)});
		}
	});
});

describe('a filter applied again later in a live stream (the errors key, a filter typed again)', () => {
	const grown = [
		[...readLines(1500, 700), resultLine(0, true), resultLine(3, true), resultLine(7, false)],
		[resultLine(1200, true), ...readLines(2200, 10)],
		[resultLine(5, false), resultLine(2205, true), ...readLines(2210, 5)],
		[resultLine(10, true), resultLine(2201, false)],
		[...readLines(2215, 40), resultLine(2216, true), resultLine(4, true)],
	];
	// More filters than are kept (4), so that some come back after theirs were let go.
	const texts = ['errors', 'shared', '-errors shared', 'step:10-400', 'late-text', 'type:readTextFile -shared', 'run:run-1'];

	it("gives exactly a fresh scan's matches, by a new filter object of the same text, whichever filters came between", () => {
		const model = modelFromText(readLines(0, 1500).join('\n'));
		let round = 0;
		for (const lines of [...grown, ...grown.map(batch => batch.map(line => line))]) {
			for (const [k, text] of texts.entries()) {
				// Each revision applies a few of the filters, each a new object parsed again as the prompt's Enter does.
				if ((k + round) % 3 === 0) continue;
				const {shown, shownCount} = filterMatches(model, parsed(text));
				expect({round, text, shown: [...shown], count: shownCount}).toEqual({round, text, ...matchesOf(model, parsed(text))});
			}

			// `x`'s filter, made by toggling, at every other revision.
			if (round % 2 === 0) {
				const errors = toggleErrors(emptyFilter);
				const scan = startFilterScan(model, errors);
				while (!continueFilterScan(model, scan, () => true));
				expect({round, shown: [...scan.matches!.shown], count: scan.matches!.shownCount}).toEqual({round, ...matchesOf(model, errors)});
			}

			modelFromText(`${lines.join('\n')}\n`, {model});
			round++;
		}
	});

	it('starts from its matches of the last time it was applied: only what changed since and what is new is tested', () => {
		const model = modelFromText(readLines(0, 1500).join('\n'));
		// Two revisions: the activities' changes are tracked from the second one the model is seen at.
		filterMatches(model, parsed('errors'));
		modelFromText(`${readLines(1500, 10).join('\n')}\n`, {model});
		filterMatches(model, parsed('errors'));
		const length = model.activities.length;
		filterMatches(model, parsed('shared'));
		modelFromText(`${[...readLines(1510, 30), resultLine(3, true)].join('\n')}\n`, {model});
		filterMatches(model, parsed('type:readTextFile'));
		const again = startFilterScan(model, parsed('errors'));
		expect(again.next).toBe(length);
		expect(again.shown[3]).toBe(1);
		while (!continueFilterScan(model, again));
		expect({shown: [...again.matches!.shown], count: again.matches!.shownCount}).toEqual(matchesOf(model, parsed('errors')));
		// Once the input has ended, `errors` asks more than the activity: worked out afresh.
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		expect(startFilterScan(model, parsed('errors')).next).toBe(0);
	});
});

/** The reference: `matches` activity by activity, with no cache and no slices. */
function matchesOf(model: Model, filter: Filter): {shown: number[]; count: number} {
	const shown = model.activities.map(activity => (matches(filter, activity, model) ? 1 : 0));
	return {shown, count: shown.filter(bit => bit === 1).length};
}
