import {describe, expect, it} from 'vitest';
import {waitForFrame} from '../../../test/helpers/app.js';
import {modelFromFixtures} from '../../../test/helpers/load.js';
import {renderView} from '../../../test/helpers/views.js';
import {parseFilter} from '../../query/filter.js';
import {findMatches} from '../../query/search.js';
import {Footer} from './footer.js';
import type {UiState} from '../../view-model/ui-state.js';

async function footer(width: number, ui: Partial<UiState> = {}): Promise<string> {
	const view = renderView(<Footer width={width} />, {model: modelFromFixtures('demo.ndjson'), ui});
	const frame = await waitForFrame(view, text => text.includes('↑↓'));
	view.unmount();
	return frame;
}

describe('the footer', () => {
	it('says whether the view follows new rows, and how to get back to following', async () => {
		expect(await footer(90)).toMatch(/^● follow {2}↑↓ move · ←→ fold · ⏎ inspect/);
		expect(await footer(90, {follow: false})).toMatch(/^○ paused \(G\) {2}↑↓ move/);
	});

	it('keeps the key hints short on a narrow screen', async () => {
		expect(await footer(60)).toBe('● follow  ↑↓ ←→ ⏎ / ? q');
	});

	it('shows the search and which of its matches is current', async () => {
		const model = modelFromFixtures('demo.ndjson');
		const matches = findMatches(model, 'vitest');
		expect(matches.length).toBeGreaterThan(1);
		const frame = await footer(99, {search: {query: 'vitest', current: matches[1]}});
		expect(frame).toContain(`/vitest 2/${matches.length}`);
	});

	it('says when a search runs over tool results of which the model keeps only the start', async () => {
		const model = modelFromFixtures('demo.ndjson');
		const render = async (ui: Partial<UiState>) => {
			const view = renderView(<Footer width={160} />, {model, ui});
			const frame = await waitForFrame(view, text => text.includes('↑↓'));
			view.unmount();
			return frame;
		};

		expect(await render({search: {query: 'vitest', current: undefined}})).not.toContain('searched by');
		model.textKeep = {limit: 256, wholeBudget: 0};
		model.cutResults = 3;
		expect(await render({search: {query: 'vitest', current: undefined}})).toContain('(3 long results searched by 256 chars)');
		const parsed = parseFilter('vitest');
		if (!parsed.ok) throw new Error(parsed.error);
		expect(await render({filter: parsed.filter})).toContain('(3 long results searched by 256 chars)');
		expect(await render({})).not.toContain('searched by');
	});

	it('names the filter, and a note for the person', async () => {
		const parsed = parseFilter('type:exec');
		if (!parsed.ok) throw new Error(parsed.error);
		const frame = await footer(60, {filter: parsed.filter, message: 'wrote /tmp/event.json'});
		// At 60 columns the keys give way to the note, and the line is cut to the width.
		expect(frame).toBe('● follow  filter: type:exec  wrote /tmp/event.json  ↑↓ ←→ ⏎…');
	});

	it("leaves the tree's keys out while another overlay, with its own line of keys, is open", async () => {
		for (const overlay of [
			{kind: 'timeline', scroll: 0},
			{kind: 'usage', scroll: 0},
			{kind: 'conversation', runId: 'r', step: 1, scroll: 0},
			{kind: 'skills', scroll: 0},
			{kind: 'help', scroll: 0},
		] as const) {
			const view = renderView(<Footer width={100} />, {model: modelFromFixtures('demo.ndjson'), ui: {overlay}});
			const frame = await waitForFrame(view, text => text.includes('esc'));
			view.unmount();
			expect(frame).toBe('● follow  esc close');
		}
	});

	it("lists the inspector's keys, not the tree's, while the inspector is open", async () => {
		const inspector = {overlay: {kind: 'inspector', activityId: 'a', scroll: 0}} as const;
		const wide = await footer(100, inspector);
		expect(wide).toBe('↑↓ scroll · / find · n/N next/prev · ⏎ unfold · e/E unfold/fold all · o save event · esc close');
		expect(wide).not.toContain('follow');
		expect(await footer(60, inspector)).toBe('↑↓ / n N ⏎ e E o esc');
		// A note (where `o` wrote the event) comes first.
		expect(await footer(60, {...inspector, message: 'wrote /tmp/event.json'})).toBe('wrote /tmp/event.json  ↑↓ / n N ⏎ e E o esc');
	});
});
