import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath, modelFromText} from '../../../test/helpers/load.js';
import {growLiveText, tailRows} from './row-tail.js';

/** The runtime's recording of a long answer, cut while the answer streams: 250 lines of it written so far, still live. */
function streaming() {
	const lines = readFileSync(fixturePath('real/long-stream.ndjson'), 'utf8').trim().split('\n');
	const last = lines.findLastIndex(line => line.includes('"streamRunResult"'));
	const model = modelFromText(Buffer.from(`${lines.slice(0, last + 1).join('\n')}\n`), {source: 'long-stream'});
	const pane = [...model.panes.values()][0]!;
	return {model, pane};
}

describe('#32 §3.8 the live text window grows into free rows', () => {
	it('shows 6 lines of a streaming answer when the screen has no room to spare', () => {
		const {model, pane} = streaming();
		const rows = tailRows(model, pane, 0, 80);
		// Its thinking (one line) above its answer's last 6.
		expect(rows.map(row => row.kind === 'live' && row.text)).toEqual([
			'Now write it out in full.',
			'Line 245 of the report.',
			'Line 246 of the report.',
			'Line 247 of the report.',
			'Line 248 of the report.',
			'Line 249 of the report.',
			'Line 250 of the report.',
		]);
		expect(growLiveText(model, rows, 0, 80)).toBe(rows);
	});

	it('gives the free rows to the answer, its latest lines, up to what it has', () => {
		const {model, pane} = streaming();
		const rows = [
			{kind: 'pane', key: 'p', paneId: pane.paneId, depth: 0, collapsed: false, orphan: false, cycle: false} as const,
			...tailRows(model, pane, 0, 80),
		];
		const grown = growLiveText(model, rows, 14, 80);
		// The thinking has no more to show: the answer takes all 14, 20 lines in all.
		expect(grown).toHaveLength(22);
		expect(grown.slice(0, 2)).toEqual(rows.slice(0, 2));
		// The answer as streamed so far (the recording's pieces arrive out of order, and read so while live): its last 20 lines.
		const run = model.runs.get(pane.runIds.at(-1)!)!;
		const answer = [...run.streams.values()].at(-1)!.result.text.split('\n');
		expect(grown.slice(2).map(row => row.kind === 'live' && row.channel === 'result' && row.text)).toEqual(answer.slice(-20));
		expect(grown.slice(-6).map(row => row.kind === 'live' && row.text)).toEqual(rows.slice(-6).map(row => row.kind === 'live' && row.text));
		// Keys stay unique, so the view draws each row once.
		expect(new Set(grown.map(row => row.key)).size).toBe(grown.length);
		expect(growLiveText(model, rows, 1000, 80)).toHaveLength(2 + 250);
	});
});

// Regression: a Claude Code run keeps running while its sub-agent works, and the thinking of its first step, long
// complete, stayed as its live text below the sub-agent's rows, where it read as the sub-agent's.
describe('the live text of a run that has gone on to a later step', () => {
	const lines = readFileSync(fixturePath('claude-code/partial-messages.ndjson'), 'utf8').trim().split('\n');
	function cutAfter(test: (line: string) => boolean) {
		const model = modelFromText(Buffer.from(`${lines.slice(0, lines.findIndex(test) + 1).join('\n')}\n`), {source: 'partial-messages'});
		const pane = [...model.panes.values()][0]!;
		return tailRows(model, pane, 0, 80).map(row => row.kind === 'live' && `${row.channel}: ${row.text}`);
	}

	it('is its thinking while that step runs, complete or not', () => {
		const thinking = 'reasoning: The file is short; read it, then a helper can check the spelling.';
		expect(cutAfter(line => line.includes('"thinking_delta"'))).toEqual([thinking]);
		// The thinking block complete, its Read call made: the step is still this one.
		expect(cutAfter(line => line.includes('"input_json_delta"'))).toEqual([thinking]);
	});

	it('is gone once the run has started its next step, here the one that starts the sub-agent', () => {
		expect(cutAfter(line => line.includes('"task_started"'))).toEqual([]);
	});
});

// Regression: live text was wrapped one column (before its rows moved in line with the activities, three) wider
// than its row had room for, so a long word's last characters were cut off with an ellipsis.
describe('live text fits its row', () => {
	it('wraps a word longer than the row into rows that each fit the width, losing nothing', () => {
		const lines = readFileSync(fixturePath('claude-code/partial-messages.ndjson'), 'utf8').trim().split('\n');
		const last = lines.findLastIndex(line => line.includes('"text_delta"'));
		const word = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
		const cut = lines.slice(0, last + 1);
		cut[last] = cut[last]!.replace(/"text":"[^"]*"/, `"text":" ${word}"`);
		const model = modelFromText(Buffer.from(`${cut.join('\n')}\n`), {source: 'partial-messages'});
		const pane = [...model.panes.values()][0]!;
		for (const width of [40, 61]) {
			const live = tailRows(model, pane, 0, width).filter(row => row.kind === 'live');
			// The cursor's column, the activities' indent (2) and the gutter (`│ `) come before the text.
			for (const row of live) expect(1 + 2 + 2 + row.text.length, row.text).toBeLessThanOrEqual(width);
			expect(live.map(row => row.text).join('')).toContain(word);
		}
	});
});
