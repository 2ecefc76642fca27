import {readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {Ingest} from '../../load/ingest.js';
import {fileInput, type InputPlan} from '../inputs.js';
import {runSourcesFast} from '../../load/run-sources-fast.js';
import {conversationRequest} from './message-line.js';
import {RawEvents} from './raw-events.js';

/*
 * The viewer loads plain files the fast way, where lines never pass through Ingest's `onLine`: the
 * inspector then reads each event again from the file at the offset the fast path recorded. Small chunks
 * put chunk boundaries all through the file.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
function plan(path: string): InputPlan {
	return {inputs: [fileInput(path)], label: path, demo: false, follow: false, jobsRoot: undefined};
}

describe('raw events of a file loaded the fast way', () => {
	for (const fixture of ['fixtures/demo.ndjson', 'fixtures/real/tools.ndjson', 'fixtures/streaming.ndjson']) {
		it(`every activity of ${fixture} reads back as its own line of the file`, async () => {
			const path = `${root}${fixture}`;
			const lines = readFileSync(path, 'utf8').split('\n');
			const raw = new RawEvents();
			const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024, onLine: line => raw.remember(line)});
			raw.addPlan(plan(path));
			expect(await runSourcesFast(plan(path), ingest, {}, {tuning: {chunkWorkers: 0, chunkBytes: 4096}}).done).toBe(0);

			expect(ingest.model.activities.length).toBeGreaterThan(0);
			for (const activity of ingest.model.activities) {
				expect(raw.read(activity.ref)).toBe(lines[activity.ref.line - 1]?.replace(/\r$/, ''));
			}
		});
	}
});

describe('the file a source is read from whole', () => {
	const path = fileURLToPath(new URL('../../../fixtures/codex/rollout-edit-and-test.jsonl', import.meta.url));

	it('is the file itself, loaded or followed: c on a followed rollout or transcript said its messages were gone', () => {
		for (const follow of [false, true]) {
			const raw = new RawEvents();
			const plan: InputPlan = {inputs: [fileInput(path, 'rollout.jsonl')], label: 'rollout.jsonl', demo: false, follow, jobsRoot: undefined};
			raw.addPlan(plan);
			expect(raw.fileOf('rollout.jsonl'), `follow: ${follow}`).toBe(path);
			expect(raw.fileOf('another.jsonl')).toBeUndefined();
		}
	});
});

describe('a chat kept as one JSON document (Gemini CLI before 0.40): its steps’ conversations', () => {
	const path = fileURLToPath(new URL('../../../fixtures/gemini/chat-document/chats/session-2026-11-30T03-22-5cb65d08.json', import.meta.url));
	const session = '5cb65d08-9708-44fa-a074-b37d5efce019';

	it('regression: once its line had left the buffer of recent lines (a long session, or followed), a step was looked for as a stream’s', async () => {
		for (const follow of [false, true]) {
			// A buffer too small for the document's one line: it is never kept.
			const raw = new RawEvents({maxBytes: 100});
			const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024, onLine: line => raw.remember(line)});
			const input = fileInput(path);
			const given: InputPlan = {inputs: [input], label: path, demo: false, follow, jobsRoot: undefined};
			raw.addPlan(given);
			const splitter = ingest.splitter(input.label);
			splitter.push(readFileSync(path));
			splitter.end();
			const step = ingest.model.runs.get(`${session}#2`)!.steps.length;
			// Lines read since (another source's) push the document's out.
			raw.remember({source: 'another', line: 1, offset: 0, text: 'x'.repeat(200)});
			expect(raw.read({source: input.label, line: 1, offset: 0})?.trim() ?? '{', String(follow)).toBe('{');
			const found = conversationRequest(raw, {source: input.label, line: 1, offset: 0, step, dialect: 'gemini', runId: `${session}#2`});
			expect(found, String(follow)).toEqual({kind: 'request', request: {kind: 'chat document', path, runId: `${session}#2`, step: 2}});
		}
	});
});
