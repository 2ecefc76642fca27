import {describe, expect, it} from 'vitest';
import {waitForFrame} from '../../test/helpers/app.js';
import {renderView} from '../../test/helpers/views.js';
import type {InspectorLine} from '../view-model/lines/inspector-lines.js';
import {ScrollPanel} from './scroll-panel.js';

const lines: InspectorLine[] = Array.from({length: 10}, (_, index) => ({text: `line ${index + 1}`}));

async function panel(scroll: number, height: number, content: InspectorLine[] = lines): Promise<string[]> {
	const view = renderView(<ScrollPanel title="Inspector" lines={content} scroll={scroll} height={height} width={40} hint="esc close" />);
	const frame = await waitForFrame(view, text => text.includes('esc close'));
	view.unmount();
	return frame.split('\n');
}

describe('a scroll panel', () => {
	it('shows its title, the lines that fit from the scroll position, and where they are in the whole', async () => {
		expect(await panel(0, 5)).toEqual([' Inspector', 'line 1', 'line 2', 'line 3', '1–3 of 10 · esc close']);
		expect(await panel(7, 5)).toEqual([' Inspector', 'line 8', 'line 9', 'line 10', '8–10 of 10 · esc close']);
	});

	it('keeps blank lines as lines', async () => {
		expect(await panel(0, 5, [{text: 'Keys'}, {text: ''}, {text: 'Icons'}])).toEqual([' Inspector', 'Keys', '', 'Icons', '1–3 of 3 · esc close']);
	});

	it('cuts long lines to the width instead of wrapping them', async () => {
		const frame = await panel(0, 4, [{text: 'x'.repeat(100)}]);
		expect(frame).toHaveLength(4);
		expect(frame[1]!.length).toBeLessThanOrEqual(40);
	});
});
