import {describe, expect, it} from 'vitest';
import {isSubagentFile, subagentsFolderOf, transcriptLineTime} from './session-files.js';

describe('a Claude Code session on disk', () => {
	it('is a transcript named by its session id (a UUID), whose sub-agents are in a folder of that name', () => {
		expect(subagentsFolderOf('0ccdcfe9-b26c-42b6-bd34-9894be0511a7.jsonl')).toBe('0ccdcfe9-b26c-42b6-bd34-9894be0511a7/subagents');
		// Any other name is a file like any other: a stream saved by hand, a session renamed.
		for (const name of [
			'run.jsonl',
			'0ccdcfe9-b26c-42b6-bd34-9894be0511a7.ndjson',
			'0ccdcfe9-b26c-42b6-bd34-9894be0511a7.jsonl.gz',
			'x0ccdcfe9-b26c-42b6-bd34-9894be0511a7.jsonl',
		])
			expect(subagentsFolderOf(name), name).toBeUndefined();
	});

	it('reads the sub-agents\u2019 transcripts in that folder, not their .meta.json', () => {
		expect(isSubagentFile('agent-a8d324eb581d3a1e0.jsonl')).toBe(true);
		expect(isSubagentFile('agent-a8d324eb581d3a1e0.meta.json')).toBe(false);
		expect(isSubagentFile('notes.jsonl')).toBe(false);
	});

	it('orders lines by their `timestamp`; a line without one, or not JSON, has no time of its own', () => {
		expect(transcriptLineTime('{"type":"user","timestamp":"2026-11-29T14:24:09.895Z"}')).toBe(Date.parse('2026-11-29T14:24:09.895Z'));
		// The top-level key, not one inside the line's message.
		expect(transcriptLineTime('{"type":"last-prompt","message":{"timestamp":"2026-11-29T14:24:09.895Z"}}')).toBeUndefined();
		expect(transcriptLineTime('{"timestamp":"yesterday"}')).toBeUndefined();
		expect(transcriptLineTime('{"timestamp":')).toBeUndefined();
	});
});
