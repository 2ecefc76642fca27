import {describe, expect, it} from 'vitest';
import {Ingest} from '../load/ingest.js';
import {keys, renderApp, settle, sourceState, waitForFrame} from '../../test/helpers/app.js';
import {modelFromFixtures, perstackLine} from '../../test/helpers/load.js';

/** An ingest fed line by line, as a live stream would be. */
function liveIngest() {
	const ingest = new Ingest({maxLineBytes: 1 << 20});
	let line = 0;
	return {
		model: ingest.model,
		feed(...lines: string[]) {
			for (const text of lines) ingest.line({source: 'live', line: ++line, offset: 0, text});
		},
	};
}

const run = {expertKey: 'writer', runId: 'run-w', jobId: 'job-live'};

describe('pane headers', () => {
	it('show expert, status, steps, tokens and a fold marker', async () => {
		const app = renderApp(modelFromFixtures('real/delegate.ndjson'));
		const frame = await waitForFrame(app, text => text.includes('coordinator'));
		expect(frame).toMatch(/▾ coordinator ✓ completed · 3 steps · 3\.0k↑ 44↓ \$0\.0098 · 625ms ↻1/);
		expect(frame).toMatch(/▸ child-expert ✓ completed · 3 steps · 4\.3k↑ 27↓/);
		app.unmount();
	});

	it('say when a run stopped on an error, on max steps, or waits for input', async () => {
		for (const [fixture, look] of [
			['real/error.ndjson', '✗ error'],
			['max-steps.ndjson', '⏹ max steps'],
			['real/interactive-1.ndjson', '⏸ waiting for input'],
		] as const) {
			const app = renderApp(modelFromFixtures(fixture));
			await waitForFrame(app, frame => frame.includes(look));
			app.unmount();
		}
	});

	it('a finished child is collapsed by default and opens with → , closes with ←', async () => {
		const app = renderApp(modelFromFixtures('real/delegate.ndjson'));
		await waitForFrame(app, frame => frame.includes('▸ child-expert'));
		expect(app.lastFrame()).not.toContain('📁 list .');
		await app.press('kkk');
		await app.press(keys.right);
		await waitForFrame(app, frame => frame.includes('▾ child-expert') && frame.includes('📁 list .'));
		await app.press(keys.left);
		await waitForFrame(app, frame => frame.includes('▸ child-expert') && !frame.includes('📁 list .'));
		app.unmount();
	});

	it('e expands every pane and E collapses them all to their headers', async () => {
		const app = renderApp(modelFromFixtures('nested-delegate.ndjson'));
		await app.press('e');
		await waitForFrame(app, frame => frame.includes('▾ researcher') && frame.includes('webpack.config.js'));
		await app.press('E');
		const folded = await waitForFrame(app, frame => frame.includes('▸ coordinator'));
		expect(folded).not.toContain('planner');
		app.unmount();
	});
});

describe('live streaming text', () => {
	it('appears under a running pane as deltas arrive, and is replaced by the completed answer', async () => {
		const live = liveIngest();
		live.feed(
			perstackLine(
				'startRun',
				{initialCheckpoint: {status: 'init', stepNumber: 1}, inputMessages: [{type: 'userMessage', contents: [{type: 'textPart', text: 'Write a haiku'}]}]},
				run,
			),
			perstackLine('startGeneration', {}, run),
			perstackLine('startStreamingReasoning', {}, run),
			perstackLine('streamReasoning', {delta: 'Thinking about '}, run),
			perstackLine('streamReasoning', {delta: 'autumn leaves'}, run),
		);
		const app = renderApp(live.model, {sources: [sourceState({label: 'stdin', kind: 'stdin', live: true, bytesTotal: undefined})]});
		await waitForFrame(app, frame => frame.includes('┆ Thinking about autumn leaves'));
		expect(app.lastFrame()).toContain('● running');

		live.feed(perstackLine('startStreamingRunResult', {}, run), perstackLine('streamRunResult', {delta: 'Red leaves drift down'}, run));
		app.store.tick();
		await waitForFrame(app, frame => frame.includes('│ Red leaves drift down'));

		live.feed(
			perstackLine('completeStreamingRunResult', {text: 'Red leaves drift down, the pond keeps them.'}, run),
			perstackLine('completeRun', {checkpoint: {status: 'completed', stepNumber: 1}, text: 'Red leaves drift down, the pond keeps them.'}, run),
		);
		app.store.tick();
		const done = await waitForFrame(app, frame => frame.includes('✅ complete Red leaves drift down, the pond keeps them.'));
		expect(done).not.toContain('│ Red leaves');
		expect(done).not.toContain('┆ Thinking');
		expect(done).toContain('✓ completed');
		app.unmount();
	});

	it('does not redraw for every delta: the store publishes at most once per tick', async () => {
		const live = liveIngest();
		live.feed(perstackLine('startRun', {initialCheckpoint: {status: 'init', stepNumber: 1}}, run));
		const app = renderApp(live.model);
		await settle();
		const before = app.frames.length;
		for (let i = 0; i < 500; i++) live.feed(perstackLine('streamRunResult', {delta: `${i} `}, run));
		await settle();
		// Nothing drew yet: deltas go into the model, the screen waits for the tick.
		expect(app.frames.length).toBe(before);
		app.store.tick();
		await settle();
		expect(app.frames.length - before).toBeLessThanOrEqual(2);
		app.unmount();
	});
});

describe('inspector', () => {
	it('shows a tool call in full: arguments, the error result, reasoning, run and the raw event', async () => {
		const model = modelFromFixtures('real/tools.ndjson');
		const app = renderApp(model, {rawEvent: ref => `{"type":"callTools","line":${ref.line}}`});
		await app.press('g');
		// query, todo, write, read notes.md, list, read missing-file.txt
		await app.press('jjjjjj');
		await app.press(keys.enter);
		const frame = await waitForFrame(app, text => text.includes('Inspector'));
		expect(frame).toContain('readTextFile · tools-expert · step 3');
		expect(frame).toContain('"path": "missing-file.txt"');
		expect(frame).toContain('Result — error: File missing-file.txt does not exist.');
		await app.press('G');
		const bottom = await waitForFrame(app, text => text.includes('Raw event'));
		expect(bottom).toContain('"line": 55');
		await app.press(keys.escape);
		await waitForFrame(app, text => !text.includes('Inspector'));
		app.unmount();
	});
});

describe('overlays', () => {
	it('? lists every key, esc closes it', async () => {
		const app = renderApp(modelFromFixtures('real/simple.ndjson'));
		await app.press('?');
		const help = await waitForFrame(app, frame => frame.includes('Keys'));
		for (const text of ['move the selection', 'collapse / expand', 'expand all / collapse all', 'toggle follow']) expect(help).toContain(text);
		await app.press(keys.pageDown);
		await app.press(keys.pageDown);
		await waitForFrame(app, frame => frame.includes('quit (Ctrl-C first interrupts a running command)'));
		await app.press(keys.escape);
		await waitForFrame(app, frame => !frame.includes('move the selection'));
		app.unmount();
	});

	it('d lists the lines that could not be read, with their line numbers', async () => {
		const live = liveIngest();
		live.feed('not json', perstackLine('startRun', {initialCheckpoint: {status: 'init', stepNumber: 1}}, run), '[1,2]');
		const app = renderApp(live.model);
		await waitForFrame(app, frame => frame.includes('⚠ 2 bad lines'));
		await app.press('d');
		const list = await waitForFrame(app, frame => frame.includes('Diagnostics'));
		expect(list).toContain('live:1  not JSON');
		expect(list).toContain('live:3  not an event: JSON array');
		app.unmount();
	});

	it('q quits, and asks first while a command is still running', async () => {
		const app = renderApp(modelFromFixtures('real/simple.ndjson'));
		await app.press('q');
		expect(app.quits()).toBe(1);
		app.unmount();
	});
});

describe('the tree under a filter', () => {
	it('x opens the failed child to show its error, hides the pane without errors, and gives the folds back after', async () => {
		const app = renderApp(modelFromFixtures('delegate-failure.ndjson'));
		await waitForFrame(app, frame => frame.includes('▸ changelog-writer'));
		await app.press('x');
		const filtered = await waitForFrame(app, frame => frame.includes('▾ changelog-writer'));
		expect(filtered).toContain('1 pane without matches hidden');
		expect(filtered).not.toContain('docs-checker');
		expect(filtered).toContain('error AI_APICallError: Overloaded');
		await app.press('x');
		const cleared = await waitForFrame(app, frame => frame.includes('▸ changelog-writer'));
		expect(cleared).toContain('docs-checker');
		expect(cleared).not.toContain('without matches hidden');
		app.unmount();
	});

	it('after x, the selection is on a visible row: the row it was on hidden, the nearest one shown above its place', async () => {
		const app = renderApp(modelFromFixtures('delegate-failure.ndjson'));
		await waitForFrame(app, frame => frame.includes('▸ docs-checker'));
		// Paused on the pane that errors-only hides, the last row.
		await app.press('k');
		await app.press('j');
		await waitForFrame(app, frame => (frame.split('\n').find(line => line.startsWith('›')) ?? '').includes('docs-checker'));
		await app.press('x');
		const filtered = await waitForFrame(app, frame => frame.includes('1 pane without matches hidden'));
		const selected = filtered.split('\n').filter(line => line.startsWith('›'));
		expect(selected).toHaveLength(1);
		expect(selected[0]).not.toContain('without matches hidden');
		app.unmount();
	});

	it('x says "no errors" on a log without any, and marks no row as selected', async () => {
		const app = renderApp(modelFromFixtures('real/simple.ndjson'));
		await app.press('x');
		const frame = await waitForFrame(app, frame => frame.includes('no errors'));
		expect(frame).not.toContain('›');
		app.unmount();
	});
});
