import {describe, expect, it} from 'vitest';
import {sourceState, waitForFrame} from '../../../test/helpers/app.js';
import {renderView} from '../../../test/helpers/views.js';
import type {SourceState} from '../../input/source-state.js';
import {SourceStrip, sourceStripHeight} from './source-strip.js';

async function strip(sources: SourceState[]): Promise<string> {
	const view = renderView(<SourceStrip width={100} />, {env: {sources}});
	const frame = await waitForFrame(view, text => text.trim() !== '');
	view.unmount();
	return frame;
}

describe('the source strip', () => {
	it('shows a progress bar, the bytes and the rate while a file loads', async () => {
		const frame = await strip([sourceState({label: 'big.ndjson', live: true, bytesRead: 40 * 1024 * 1024, bytesTotal: 160 * 1024 * 1024})]);
		expect(frame).toBe(`loading big.ndjson ${'█'.repeat(5)}${'░'.repeat(15)} 25% · 40.0 MB / 160.0 MB · 0 events/s`);
	});

	it('says what it follows, or waits for', async () => {
		expect(await strip([sourceState({label: 'run.ndjson', live: true, following: true})])).toBe('following run.ndjson (new lines appear as they are written)');
		expect(await strip([sourceState({label: 'later.ndjson', live: true, waiting: true})])).toBe('waiting for later.ndjson to appear…');
	});

	it('shows the last two lines a command wrote to stderr, cleaned for the terminal', async () => {
		const frame = await strip([sourceState({kind: 'command', stderr: ['first', 'second', 'third \u001B[31mred'], stderrCount: 3})]);
		expect(frame.split('\n')).toEqual(['stderr │ second', 'stderr │ third ␛[31mred']);
		expect(frame).not.toContain('\u001B');
	});
});

describe('sourceStripHeight', () => {
	it('takes no lines for a file read to its end, one while loading, and up to two for stderr', () => {
		expect(sourceStripHeight([sourceState()])).toBe(0);
		expect(sourceStripHeight([sourceState({live: true, bytesRead: 1, bytesTotal: 10})])).toBe(1);
		expect(sourceStripHeight([sourceState({live: true, following: true, stderr: ['a', 'b', 'c'], stderrCount: 3})])).toBe(3);
		expect(sourceStripHeight([sourceState({stderr: ['a'], stderrCount: 1}), sourceState({stderr: ['b', 'c'], stderrCount: 2})])).toBe(2);
	});
});
