import {Text} from 'ink';
import React from 'react';
import {describe, expect, it} from 'vitest';
import {keys, waitForFrame} from '../../test/helpers/app.js';
import {modelFromFixtures} from '../../test/helpers/load.js';
import {renderView} from '../../test/helpers/views.js';
import {createModel, type Model} from '../model/state.js';
import {useUiState} from './contexts.js';
import {TimelineView} from './timeline-view.js';

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
	it('draws a row per step under the run that took it, delegates nested, with durations and tokens', async () => {
		const view = openTimeline(modelFromFixtures('real/delegate.ndjson'), 12);
		const lines = (await waitForFrame(view, text => text.includes('Timeline'))).split('\n');
		expect(lines[0]).toBe(' Timeline · xrg3kr5eyfy4evxm775cs81p · 625ms');
		expect(lines[1]).toMatch(/^coordinator +─+ ✓ 625ms$/);
		expect(lines[2]).toMatch(/^ {2}step 1 +█+ +231ms +923↑ 21↓$/);
		expect(lines[3]).toMatch(/^ {2}child-expert +─+ +✓ 218ms$/);
		expect(lines[4]).toMatch(/^ {4}step 2 +█+ +47ms +926↑ 5↓$/);
		expect(lines.at(-1)).toBe('1–8 of 8 · red: slowest steps · ⋯ long gap before · t or esc back');
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

	it('scrolls with the keys and closes with t', async () => {
		const view = openTimeline(modelFromFixtures('demo.ndjson'), 8);
		await waitForFrame(view, text => text.includes('1–6 of 20'));
		await view.press('j');
		await waitForFrame(view, text => text.includes('2–7 of 20'));
		await view.press(keys.pageDown);
		await waitForFrame(view, text => text.includes('7–12 of 20'));
		await view.press('G');
		const bottom = await waitForFrame(view, text => text.includes('15–20 of 20'));
		expect(bottom).toMatch(/^ {2}step 14 /m);
		await view.press('t');
		await waitForFrame(view, text => text === 'closed');
		view.unmount();
	});

	it('says when there are no steps yet', async () => {
		const view = openTimeline(createModel(), 6);
		const frame = await waitForFrame(view, text => text.includes('Timeline'));
		expect(frame.split('\n')[0]).toBe(' Timeline · no job · –');
		expect(frame).toContain('no steps yet');
		view.unmount();
	});
});
