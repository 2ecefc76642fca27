import {describe, expect, it} from 'vitest';
import {keys, renderApp, waitForFrame} from '../../../test/helpers/app.js';
import {modelFromFixtures, modelFromText, perstackLine} from '../../../test/helpers/load.js';
import {emptyFilter, filterMatches, parseFilter, type Filter} from '../../query/filter.js';
import {findMatches, stepMatch} from '../../query/search.js';
import type {Model} from '../../model/state.js';
import {ViewerWork} from '../viewer-work.js';
import {manualScheduler} from '../../../test/helpers/manual-scheduler.js';

function selected(frame: string): string | undefined {
	return frame.split('\n').find(line => line.startsWith('›'));
}

describe('search', () => {
	it('jumps to the first match as you type, counts the matches, and n / N step through them', async () => {
		const app = renderApp(modelFromFixtures('demo.ndjson'));
		await app.press('g');
		await app.press('/vitest');
		const typing = await waitForFrame(app, frame => frame.includes('/vitest'));
		expect(typing).toMatch(/1\/7 matches/);
		// Results are searched too: package.json's content names vitest.
		expect(selected(typing)).toContain('read package.json');
		expect(typing).toContain('▸ test-runner');
		await app.press(keys.enter);
		await app.press('n');
		// The next match is inside the folded test-runner pane, which opens on the way.
		const next = await waitForFrame(app, frame => frame.includes('/vitest 2/7'));
		expect(selected(next)).toContain('exec npm test');
		expect(next).toContain('▾ test-runner');
		await app.press('N');
		expect(selected(await waitForFrame(app, frame => frame.includes('/vitest 1/7')))).toContain('read package.json');
		await app.press(keys.escape);
		await waitForFrame(app, frame => !frame.includes('/vitest'));
		app.unmount();
	});
});

describe('filters', () => {
	it('x shows errors only, counts what it hides, and x again shows everything', async () => {
		const app = renderApp(modelFromFixtures('real/tools.ndjson'));
		await app.press('x');
		const errors = await waitForFrame(app, frame => frame.includes('filter errors'));
		expect(errors).toContain('📄 read missing-file.txt');
		expect(errors).not.toContain('⚡ exec');
		expect(errors).toMatch(/\(12 hidden\)/);
		await app.press('x');
		await waitForFrame(app, frame => frame.includes('⚡ exec') && !frame.includes('hidden'));
		app.unmount();
	});

	it(': takes a filter expression, and says what is wrong with a bad one', async () => {
		const app = renderApp(modelFromFixtures('real/tools.ndjson'));
		await app.press(':step:9-x');
		await app.press(keys.enter);
		await waitForFrame(app, frame => frame.includes(':step:9-x') && /step/.test(frame.split('\n').at(-1) ?? ''));
		await app.press('\u007F\u007F\u007F\u007F\u007F\u007F\u007F\u007F\u007Ftype:exec');
		await app.press(keys.enter);
		const filtered = await waitForFrame(app, frame => frame.includes('filter type:exec'));
		expect(filtered).toContain('⚡ exec wc -l notes.md');
		expect(filtered).not.toContain('📄 read');
		app.unmount();
	});
});

describe('timeline and usage', () => {
	it('t draws one row per step with child runs nested, and t again goes back', async () => {
		const app = renderApp(modelFromFixtures('nested-delegate.ndjson'));
		await app.press('t');
		const timeline = await waitForFrame(app, frame => frame.includes('Timeline'));
		expect(timeline).toMatch(/coordinator/);
		expect(timeline).toMatch(/\n\s+planner/);
		expect(timeline).toMatch(/step \d+/);
		expect(timeline).toContain('█');
		await app.press('t');
		await waitForFrame(app, frame => !frame.includes('Timeline'));
		app.unmount();
	});

	it('u lists token usage per expert, largest first, with each one’s share', async () => {
		const app = renderApp(modelFromFixtures('real/delegate.ndjson'));
		await app.press('u');
		const usage = await waitForFrame(app, frame => frame.includes('Token usage per expert'));
		const lines = usage.split('\n');
		const child = lines.findIndex(line => line.startsWith('child-expert'));
		const coordinator = lines.findIndex(line => line.startsWith('coordinator'));
		expect(child).toBeGreaterThan(-1);
		expect(coordinator).toBeGreaterThan(child);
		expect(lines[child]).toMatch(/4\.3k/);
		app.unmount();
	});
});

describe('checkpoints and resume', () => {
	it('the inspector offers the resume command for a coordinator step', async () => {
		const app = renderApp(modelFromFixtures('real/delegate.ndjson'));
		await app.press('g');
		await app.press('j');
		await app.press(keys.enter);
		await app.press('G');
		const frame = await waitForFrame(app, text => text.includes('Resume from this step'));
		// One line, never wrapped (#32 §3.6): the screen cuts it at its edge.
		expect(frame).toMatch(/^perstack run --runtime local coordinator 'Find out what is in the workspace\.' --continue-job/m);
		app.unmount();
	});

	it('a run stopped by an interactive tool shows what it asked and how to answer', async () => {
		const app = renderApp(modelFromFixtures('real/interactive-1.ndjson'));
		await app.press('g');
		await app.press('jj');
		await app.press(keys.enter);
		const frame = await waitForFrame(app, text => text.includes('Inspector'));
		expect(frame).toContain('🙋 interactiveTool');
		// The log names the runtime the job ran in (local), which the released CLI would not otherwise use. The line is
		// one line, cut at the screen's edge (100 columns here).
		const command = "perstack run --runtime local interactive-expert '<answer>' --continue-job xlkgdwda3hj";
		for (let page = 0; page < 5 && !(app.lastFrame() ?? '').includes(command); page++) await app.press(keys.pageDown);
		const answer = await waitForFrame(app, text => text.includes(command));
		expect(answer).toContain(command);
		app.unmount();
	});

	it('the tree shows the question an interactive tool is waiting on, with the command that answers it', async () => {
		const app = renderApp(modelFromFixtures('real/interactive-1.ndjson'));
		const frame = await waitForFrame(app, text => text.includes('🙋 waiting for your answer'));
		expect(frame).toContain('askUser: Which colour should the report use?');
		expect(frame).toContain('answer with: perstack run --runtime local interactive-expert "<answer>" --continue-job');
		app.unmount();
		// Once answered (the continued run is in the log too), the notice is gone.
		const answered = renderApp(modelFromFixtures('real/interactive-1.ndjson', 'real/interactive-2-continue.ndjson'));
		await waitForFrame(answered, text => text.includes('✓ completed'));
		expect(answered.lastFrame()).not.toContain('waiting for your answer');
		answered.unmount();
	});

	it('o in the inspector writes the raw event and says where', async () => {
		const written: string[] = [];
		const app = renderApp(modelFromFixtures('real/simple.ndjson'), {
			exportEvent: activity => {
				written.push(activity.id);
				return `/tmp/perscope-${activity.type}.json`;
			},
		});
		await app.press(keys.enter);
		await app.press('o');
		await waitForFrame(app, frame => frame.includes('wrote /tmp/perscope-complete.json'));
		expect(written).toHaveLength(1);
		app.unmount();
	});
});

/** The text of each log execLog made: its lines are made once, its model anew on each call. */
const execLogTexts = new Map<number, string>();

/** A log of `count` exec calls, every third running the shared command, loaded afresh on each call. */
function execLog(count: number): Model {
	let text = execLogTexts.get(count);
	if (text === undefined) {
		text = execLines(0, count).join('\n');
		execLogTexts.set(count, text);
	}

	return modelFromText(text);
}

/** The lines of exec calls `from` to `from + count - 1`. */
function execLines(from: number, count: number): string[] {
	const lines: string[] = [];
	for (let i = from; i < from + count; i++) {
		const command = i % 3 === 0 ? `npm test -- shard-${i}` : `ls dir-${i}`;
		lines.push(
			perstackLine('callTools', {
				stepNumber: i + 1,
				newMessage: {contents: []},
				toolCalls: [{id: `c${i}`, skillName: '@perstack/base', toolName: 'exec', args: {command}}],
			}),
		);
	}

	return lines;
}

describe('searchable texts made ahead on idle time', () => {
	const queries = ['npm test', 'shard-3', 'LS DIR-1', 'exec', 'nothing-like-this'];

	it('a search started before they are all made finds the same as one with none made ahead, and as one after', () => {
		const fresh = execLog(3000);
		const expected = new Map(queries.map(query => [query, findMatches(fresh, query)]));
		expect(expected.get('npm test')).toHaveLength(1000);
		const model = execLog(3000);
		const scheduler = manualScheduler();
		const work = new ViewerWork(scheduler);
		work.texts.prepare(model, () => false);
		scheduler.runOne();
		// Several slices are needed: a search now meets texts made and texts not made yet.
		expect(work.texts.prepared(model)).toBe(false);
		expect(scheduler.pending).toHaveLength(1);
		for (const query of queries) expect(work.searches.sharedMatches(model, query, emptyFilter), query).toEqual(expected.get(query));
		expect(scheduler.runAll()).toBeGreaterThan(1);
		expect(work.texts.prepared(model)).toBe(true);
		for (const query of queries) expect(findMatches(model, query), query).toEqual(expected.get(query));
	});

	it('waits while the file is read on this thread, and a newer model takes the place of the one being prepared', () => {
		const first = execLog(2000);
		const scheduler = manualScheduler();
		const work = new ViewerWork(scheduler);
		let busy = true;
		work.texts.prepare(first, () => busy);
		scheduler.runOne();
		scheduler.runOne();
		expect(work.texts.prepared(first)).toBe(false);
		// Asked again for the same model: nothing new is scheduled.
		work.texts.prepare(first, () => busy);
		expect(scheduler.pending).toHaveLength(1);
		busy = false;
		const second = execLog(2000);
		work.texts.prepare(second, () => busy);
		expect(scheduler.pending).toHaveLength(1);
		scheduler.runAll();
		expect(work.texts.prepared(first)).toBe(false);
		expect(work.texts.prepared(second)).toBe(true);
	});

	it("on a model changed in place (a live stream), a new revision makes the new activities' texts only, and a search finds the same (#33)", () => {
		const model = execLog(3000);
		const scheduler = manualScheduler();
		const work = new ViewerWork(scheduler);
		work.texts.prepare(model, () => false);
		expect(scheduler.runAll()).toBeGreaterThan(3);
		// Ten more calls arrive: before, each revision walked every activity again, ten times a second.
		modelFromText(execLines(3000, 10).join('\n'), {model});
		work.texts.prepare(model, () => false);
		expect(scheduler.runAll()).toBe(1);
		expect(work.texts.prepared(model)).toBe(true);
		const fresh = modelFromText(execLines(0, 3010).join('\n'));
		for (const query of queries) expect(work.searches.sharedMatches(model, query, emptyFilter), query).toEqual(findMatches(fresh, query));
	});

	it('stops at its budget of characters, and a search then makes the rest and finds the same', () => {
		const fresh = execLog(3000);
		const expected = new Map(queries.map(query => [query, findMatches(fresh, query)]));
		const model = execLog(3000);
		const scheduler = manualScheduler();
		const work = new ViewerWork(scheduler);
		// Enough for a few activities: the first slice reaches it.
		work.texts.prepare(model, () => false, 100);
		expect(scheduler.runAll()).toBe(1);
		expect(work.texts.prepared(model)).toBe(true);
		for (const query of queries) expect(work.searches.sharedMatches(model, query, emptyFilter), query).toEqual(expected.get(query));
	});

	it('a shallow copy of the model (a load in a worker moving its event count) finds its matches kept, and a change finds them again', () => {
		const model = execLog(300);
		const work = new ViewerWork();
		const found = work.searches.sharedMatches(model, 'npm test', emptyFilter);
		expect(found).toHaveLength(100);
		expect(work.searches.sharedMatches({...model, events: model.events + 1}, 'npm test', emptyFilter)).toBe(found);
		modelFromText(
			perstackLine('callTools', {
				newMessage: {contents: []},
				toolCalls: [{id: 'late', skillName: '@perstack/base', toolName: 'exec', args: {command: 'npm test -- late'}}],
			}) + '\n',
			{model},
		);
		expect(work.searches.sharedMatches(model, 'npm test', emptyFilter)).toEqual([...found, 300]);
	});
});

function filterOf(text: string): Filter {
	const parsed = parseFilter(text);
	if (!parsed.ok) throw new Error(parsed.error);
	return parsed.filter;
}

/** More exec calls reduced into `model`, numbered on from `from`; every other one changes an earlier call's result. */
function growExecLog(model: Model, from: number, count: number): void {
	const lines: string[] = [];
	for (let i = from; i < from + count; i++) {
		lines.push(
			perstackLine('callTools', {
				stepNumber: i + 1,
				newMessage: {contents: []},
				toolCalls: [{id: `c${i}`, skillName: '@perstack/base', toolName: 'exec', args: {command: i % 2 === 0 ? `npm test -- late-${i}` : `ls late-${i}`}}],
			}),
		);
		if (i % 2 === 0) {
			const earlier = i - from;
			lines.push(
				perstackLine('resolveToolResults', {
					toolResults: [
						{
							id: `c${earlier}`,
							skillName: '@perstack/base',
							toolName: 'exec',
							result: [{type: 'textPart', id: `t${i}`, text: `npm test passed for shard-${earlier}`}],
						},
					],
				}),
			);
		}
	}

	modelFromText(lines.join('\n'), {model});
}

describe('a search in idle slices', () => {
	const queries = ['npm test', 'shard-3', 'LS DIR-1', 'exec', 'nothing-like-this'];

	it('the key searches a first slice and answers; the rest goes on in slices, telling the views, to what a search in one go finds', () => {
		const fresh = execLog(6000);
		const model = execLog(6000);
		const scheduler = manualScheduler();
		const work = new ViewerWork(scheduler);
		let told = 0;
		const unsubscribe = work.progress.subscribe(() => told++);
		for (const query of queries) {
			const before = work.progress.version();
			const scan = work.searches.searchFor(model, query, emptyFilter);
			expect(scan.done, query).toBe(false);
			expect(scan.tested).toBeLessThan(6000);
			expect(scheduler.pending).toHaveLength(1);
			expect(scheduler.runAll()).toBeGreaterThan(1);
			expect(scan.done).toBe(true);
			expect(scan.matches, query).toEqual(findMatches(fresh, query));
			expect(work.progress.version()).toBeGreaterThan(before);
		}

		unsubscribe();
		expect(told).toBeGreaterThanOrEqual(queries.length);
	});

	it('a newer key takes the slices over, narrowing within what the older one had found; the older one, asked again, goes on from where it was', () => {
		const fresh = execLog(6000);
		const model = execLog(6000);
		const scheduler = manualScheduler();
		const work = new ViewerWork(scheduler);
		const npm = work.searches.searchFor(model, 'npm', emptyFilter);
		scheduler.runOne();
		expect(npm.done).toBe(false);
		const npmTest = work.searches.searchFor(model, 'npm test', emptyFilter);
		// One search is worked on at a time: the older one's slice was taken off.
		expect(scheduler.pending).toHaveLength(1);
		scheduler.runAll();
		expect(npm.done).toBe(false);
		expect(npmTest.matches).toEqual(findMatches(fresh, 'npm test'));
		expect(npmTest.tested).toBeLessThan(6000);
		expect(work.searches.searchFor(model, 'npm', emptyFilter)).toBe(npm);
		scheduler.runAll();
		expect(npm.matches).toEqual(findMatches(fresh, 'npm'));
	});

	it('started while the texts are made ahead and while the model grows, finds what a search in one go finds on the final model', () => {
		for (const filter of [emptyFilter, filterOf('-shard-9')]) {
			const model = execLog(4000);
			const scheduler = manualScheduler();
			const work = new ViewerWork(scheduler);
			work.texts.prepare(model, () => false);
			scheduler.runOne();
			const scan = work.searches.searchFor(model, 'npm test', filter);
			scheduler.runOne();
			expect(scan.done).toBe(false);
			growExecLog(model, 4000, 600);
			// The views draw the grown model and ask again: a new search for its revision.
			const again = work.searches.searchFor(model, 'npm test', filter);
			expect(again).not.toBe(scan);
			work.texts.prepare(model, () => false);
			scheduler.runAll();
			expect(again.done).toBe(true);
			const final = execLog(4000);
			growExecLog(final, 4000, 600);
			const shown = filterMatches(final, filter).shown;
			expect(again.matches).toEqual(findMatches(final, 'npm test', {include: (_activity, index) => shown[index] === 1}));
			expect(work.searches.sharedMatches(model, 'npm test', filter)).toBe(again.matches);
		}
	});

	it('n / N and the jump while typing wait for the search to reach their match, then land where a search in one go says', () => {
		const fresh = execLog(6000);
		const all = findMatches(fresh, 'shard-5');
		const model = execLog(6000);
		const scheduler = manualScheduler();
		const work = new ViewerWork(scheduler);
		const scan = work.searches.searchFor(model, 'shard-5', emptyFilter);
		expect(scan.done).toBe(false);
		const landed: number[] = [];
		let none = 0;
		// From past the first slice: not known yet.
		const from = 5000;
		expect(
			work.searches.jumpWhenFound(
				model,
				'shard-5',
				emptyFilter,
				from,
				1,
				index => landed.push(index),
				() => none++,
			),
		).toBe(true);
		expect(landed).toEqual([]);
		scheduler.runAll();
		expect(landed).toEqual([stepMatch(all, from, 1)]);
		// Done now: at once, wrapping round.
		expect(
			work.searches.jumpWhenFound(
				model,
				'shard-5',
				emptyFilter,
				all[0],
				-1,
				index => landed.push(index),
				() => none++,
			),
		).toBe(false);
		expect(landed.at(-1)).toBe(all.at(-1));
		// No match: said once the search is done, not before.
		expect(
			work.searches.jumpWhenFound(
				model,
				'nothing-like-this',
				emptyFilter,
				0,
				1,
				index => landed.push(index),
				() => none++,
			),
		).toBe(true);
		expect(none).toBe(0);
		scheduler.runAll();
		expect(none).toBe(1);
		expect(landed).toHaveLength(2);
	});

	it('a jump still waiting is dropped when the person moves meanwhile (cancelJump), and a newer jump replaces it', () => {
		const model = execLog(6000);
		const scheduler = manualScheduler();
		const work = new ViewerWork(scheduler);
		const landed: string[] = [];
		expect(
			work.searches.jumpWhenFound(
				model,
				'shard-5',
				emptyFilter,
				5000,
				1,
				() => landed.push('first'),
				() => landed.push('none'),
			),
		).toBe(true);
		work.searches.cancelJump();
		scheduler.runAll();
		expect(landed).toEqual([]);
		const other = execLog(6000);
		expect(
			work.searches.jumpWhenFound(
				other,
				'shard-5',
				emptyFilter,
				5000,
				1,
				() => landed.push('older'),
				() => landed.push('none'),
			),
		).toBe(true);
		expect(
			work.searches.jumpWhenFound(
				other,
				'shard-5',
				emptyFilter,
				5500,
				1,
				() => landed.push('newer'),
				() => landed.push('none'),
			),
		).toBe(true);
		scheduler.runAll();
		expect(landed).toEqual(['newer']);
	});
});
