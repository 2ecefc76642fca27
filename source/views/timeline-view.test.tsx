import {readFileSync} from 'node:fs';
import {Text} from 'ink';
import {describe, expect, it} from 'vitest';
import {keys, renderApp, waitForFrame} from '../../test/helpers/app.js';
import {fixturePath, modelFromFixtures, modelFromText} from '../../test/helpers/load.js';
import {renderView} from '../../test/helpers/views.js';
import {createModel, type Model} from '../model/state.js';
import {useUiState} from './contexts.js';
import {jobTimeline} from '../query/timeline.js';
import {TimelineView} from './timeline-view.js';
import {stepText} from '../view-model/lines/timeline-text.js';

/** The timeline at the scroll the UI state holds, as the app draws it; `closed` once it closes. */
function OpenTimeline({height}: {height: number}) {
	const {overlay} = useUiState();
	if (overlay.kind !== 'timeline') return <Text>closed</Text>;
	return <TimelineView scroll={overlay.scroll} height={height} width={90} />;
}

function openTimeline(model: Model, height: number) {
	return renderView(<OpenTimeline height={height} />, {model, ui: {overlay: {kind: 'timeline', scroll: 0}}});
}

describe('the timeline', () => {
	it('draws a row per step under the run that took it, what ran in it, delegates nested, with durations and tokens', async () => {
		const view = openTimeline(modelFromFixtures('real/delegate.ndjson'), 12);
		const lines = (await waitForFrame(view, text => text.includes('Timeline'))).split('\n');
		expect(lines[0]).toBe(' Timeline · xrg3kr5eyfy4evxm775cs81p · 625ms');
		// The cursor starts on the first row.
		expect(lines[1]).toMatch(/^›coordinator +─+ ✓ 625ms$/);
		expect(lines[2]).toMatch(/^ {3}step 1 → child-expert +█+ +231ms +923↑ 21↓$/);
		expect(lines[3]).toMatch(/^ {3}child-expert +─+ +✓ 218ms$/);
		expect(lines[4]).toMatch(/^ {5}step 2 listDirectory +█+ +47ms +926↑ 5↓$/);
		expect(lines[6]).toMatch(/^ {5}step 4 answered +█+ /);
		expect(lines[7]).toMatch(/^ {3}step 5 delegates returned +█+ /);
		expect(lines.at(-1)).toBe('1–8 of 8 · red: slowest · ⋯ long gap or wait · ⏎ go there · c conversation · t/esc back');
		view.unmount();
	});

	it('places each bar where its step ran within the job', async () => {
		const view = openTimeline(modelFromFixtures('real/delegate.ndjson'), 12);
		const lines = (await waitForFrame(view, text => text.includes('Timeline'))).split('\n');
		const barStart = (line: string) => line.indexOf('█');
		// The child's steps come after the coordinator's first step, and the coordinator's last step after them.
		expect(barStart(lines[4]!)).toBeGreaterThan(barStart(lines[2]!));
		expect(barStart(lines[8]!)).toBeGreaterThan(barStart(lines[6]!));
		view.unmount();
	});

	it('the untimed timeline drew no bars: a stream with no time at all gets bars in the order its events came, and says so', async () => {
		const view = openTimeline(modelFromFixtures('codex/sub-agent.jsonl'), 8);
		const lines = (await waitForFrame(view, text => text.includes('Timeline'))).split('\n');
		expect(lines[0]).toBe(' Timeline · 01a21d37-ec18-7893-8f15-6868facc7bac · untimed: bars in event order');
		const bar = (line: string) => /█+|─+/.exec(line);
		// 6 places in 90 - 40 - 24 = 26 columns: the parent's step spans them all, the helper's places 1 to 4.
		expect(bar(lines[2]!)).toMatchObject({index: 41, 0: '█'.repeat(26)});
		expect(bar(lines[3]!)).toMatchObject({index: 41 + 4, 0: '─'.repeat(14)});
		expect(bar(lines[4]!)).toMatchObject({index: 41 + 4, 0: '█'.repeat(14)});
		// No duration is made up.
		expect(lines[2]).toMatch(/█ –/);
		view.unmount();
	});

	it('moves a cursor with the keys, scrolling to keep it in sight, and closes with t', async () => {
		const view = openTimeline(modelFromFixtures('demo.ndjson'), 8);
		await waitForFrame(view, text => text.includes('1–6 of 20'));
		await view.press('j');
		const moved = await waitForFrame(view, text => /^› +step 1 /m.test(text));
		expect(moved).toContain('1–6 of 20');
		await view.press(keys.pageDown);
		await waitForFrame(view, text => text.includes('2–7 of 20') && /^› +step 5 /m.test(text));
		await view.press('G');
		const bottom = await waitForFrame(view, text => text.includes('15–20 of 20'));
		expect(bottom).toMatch(/^› {2}step 14 /m);
		await view.press('g');
		await waitForFrame(view, text => text.includes('1–6 of 20') && /^›bugfix-lead/m.test(text));
		await view.press('t');
		await waitForFrame(view, text => text === 'closed');
		view.unmount();
	});

	it('keeps the cursor on its step when a live run adds rows above it', async () => {
		// Cut where both delegates, running side by side, have taken one step each.
		const lines = readFileSync(fixturePath('demo.ndjson'), 'utf8').split('\n');
		const model = modelFromText(lines.slice(0, 55).join('\n'));
		const view = openTimeline(model, 20);
		await waitForFrame(view, text => text.includes('Timeline'));
		for (let i = 0; i < 8; i++) await view.press('j');
		const before = (await waitForFrame(view, text => /^› {4}step 5 /m.test(text))).split('\n');
		expect(before[before.findIndex(line => line.startsWith('›')) - 1]).toMatch(/^ {3}code-reader /);
		// The first delegate goes on: its new steps come above the cursor.
		modelFromText(lines.slice(55).join('\n'), {model});
		view.store.tick();
		const rows = (await waitForFrame(view, text => /^ {5}step 8 /m.test(text))).split('\n');
		const at = rows.findIndex(line => line.startsWith('›'));
		expect(rows[at]).toMatch(/^› {4}step 5 readTextFile/);
		expect(rows[at - 1]).toMatch(/^ {3}code-reader /);
		expect(rows.slice(0, at).filter(line => / step \d+ exec/.test(line)).length).toBeGreaterThan(1);
		view.unmount();
	});

	it('says when there are no steps yet', async () => {
		const view = openTimeline(createModel(), 6);
		const frame = await waitForFrame(view, text => text.includes('Timeline'));
		expect(frame.split('\n')[0]).toBe(' Timeline · no job · –');
		expect(frame).toContain('no steps yet');
		view.unmount();
	});

	it('keeps escape sequences in what a step ran off the terminal, and cuts it to its column', async () => {
		const model = modelFromFixtures('real/tools.ndjson');
		const steps = jobTimeline(model, [...model.jobs.values()][0]!).rows.filter(row => row.kind === 'step');
		const row = {...steps[0]!, does: `evil\u001B]0;title\u0007 ${'x'.repeat(200)}`};
		expect(stepText(row)).not.toMatch(/[\u001B\u0007]/);
		const view = openTimeline(model, 14);
		const lines = (await waitForFrame(view, text => text.includes('Timeline'))).split('\n');
		expect(lines.find(line => line.includes('step 3'))).toMatch(/^ {3}step 3 readTextFile ×2, listDirectory +█+ /);
		for (const line of lines) expect(line.length).toBeLessThanOrEqual(90);
		view.unmount();
	});
});

describe('the job it shows', () => {
	it('is the job the selection is in, named with which of the jobs it is', async () => {
		const model = modelFromFixtures('real/simple.ndjson', 'demo.ndjson');
		const first = renderView(<OpenTimeline height={10} />, {
			model,
			ui: {overlay: {kind: 'timeline', scroll: 0}, selectedKey: 'j:ivc73wpbhfw5k0eafe5tydni', follow: false},
		});
		const frame = await waitForFrame(first, text => text.includes('Timeline'));
		expect(frame.split('\n')[0]).toMatch(/^ Timeline · job 1\/2 ivc73wpbhfw5k0eafe5tydni · /);
		expect(frame).toContain('1–2 of 2');
		first.unmount();
		// No selection yet: the job that saw an event last, as the header says.
		const last = renderView(<OpenTimeline height={10} />, {model, ui: {overlay: {kind: 'timeline', scroll: 0}}});
		expect((await waitForFrame(last, text => text.includes('Timeline'))).split('\n')[0]).toMatch(/^ Timeline · job 2\/2 nibyyurl65b4kj4hbi6jlvhk · /);
		last.unmount();
	});
});

describe('enter on a row', () => {
	it("closes the timeline and selects the step's own first activity in the tree, unfolding its pane (#32 §3.9)", async () => {
		const app = renderApp(modelFromFixtures('demo.ndjson'));
		// Finished children start folded.
		await waitForFrame(app, text => text.includes('▸ test-runner'));
		await app.press('t');
		await waitForFrame(app, text => text.includes('Timeline'));
		for (let i = 0; i < 6; i++) await app.press('j');
		await waitForFrame(app, text => /^› +step 5 exec/m.test(text));
		await app.press(keys.enter);
		const tree = await waitForFrame(app, text => !text.includes('Timeline') && text.includes('▾ test-runner'));
		// The child's first step begins with the query it was given, then its exec: what the step did.
		const lines = tree.split('\n');
		const at = lines.findIndex(line => line.startsWith('›'));
		expect(lines[at]).toMatch(/exec/);
		expect(lines[at - 1]).toMatch(/query Run the test suite/);
		app.unmount();
	});

	it('on a pane row, selects the pane', async () => {
		const app = renderApp(modelFromFixtures('demo.ndjson'));
		await app.press('t');
		await waitForFrame(app, text => text.includes('Timeline'));
		for (let i = 0; i < 10; i++) await app.press('j');
		await waitForFrame(app, text => /^› +code-reader/m.test(text));
		await app.press(keys.enter);
		const tree = await waitForFrame(app, text => !text.includes('Timeline'));
		expect(tree.split('\n').find(line => line.startsWith('›'))).toMatch(/code-reader/);
		app.unmount();
	});
});

describe('c on a row', () => {
	it("opens the conversation of the step under the cursor, not of the tree's selection", async () => {
		const app = renderApp(modelFromFixtures('demo.ndjson'));
		await app.press('t');
		await waitForFrame(app, text => text.includes('Timeline'));
		for (let i = 0; i < 6; i++) await app.press('j');
		await waitForFrame(app, text => /^› +step 5 exec/m.test(text));
		await app.press('c');
		const frame = await waitForFrame(app, text => text.includes('Conversation'));
		expect(frame).toMatch(/Conversation · test-runner · step 5/);
		app.unmount();
	});
});

describe('long waits', () => {
	const minute = 60_000;
	it("a wait for a person's answer is marked in the view with how long it was", async () => {
		const model = modelFromText(interactiveWithWait(2 * minute));
		const view = openTimeline(model, 12);
		const frame = await waitForFrame(view, text => text.includes('Timeline'));
		// The fixture's person took 25 s to answer; two minutes more make it a long wait.
		expect(frame).toMatch(/^ ⋯ step 3 waited 2m 25s for an answer +█/m);
		view.unmount();
	});
});

/** interactive.ndjson with the person's answer coming `waitMs` after the run stopped to ask. */
function interactiveWithWait(waitMs: number): string {
	const lines = readFileSync(fixturePath('interactive.ndjson'), 'utf8')
		.split('\n')
		.filter(line => line !== '');
	const stop = lines.findIndex(line => line.includes('"type":"stopRunByInteractiveTool"'));
	if (stop < 0) throw new Error('no interactive stop in the fixture');
	const shift = (line: string) =>
		line.replaceAll(/"(timestamp|startedAt|finishedAt)":(\d+)/g, (_, key: string, value: string) => `"${key}":${Number(value) + waitMs}`);
	return [...lines.slice(0, stop + 1), ...lines.slice(stop + 1).map(shift)].join('\n');
}
