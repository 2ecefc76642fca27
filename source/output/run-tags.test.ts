import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath} from '../../test/helpers/load.js';
import {Ingest} from '../load/ingest.js';
import {createModel, endInput} from '../model/state.js';
import {shortestStart} from './run-tags.js';
import {TranscriptWriter} from './transcript.js';

/** `--print` of these lines, read one event at a time. */
function printed(lines: readonly string[]): string[] {
	const model = createModel();
	const writer = new TranscriptWriter(model, 'text');
	const ingest = new Ingest({maxLineBytes: 1 << 24, model, afterEvent: () => writer.collect()});
	const splitter = ingest.splitter('test');
	let out = '';
	for (const line of lines) {
		splitter.push(Buffer.from(line + '\n'));
		out += writer.take();
	}

	splitter.end();
	endInput(model, {exitCode: undefined, lastStderr: undefined});
	writer.finish();
	return (out + writer.take()).split('\n').filter(line => line !== '');
}

const fixtureLines = (name: string) =>
	readFileSync(fixturePath(name), 'utf8')
		.split('\n')
		.filter(line => line !== '');

describe('--print tells two concurrent runs of the same expert apart', () => {
	it('two delegations to one expert in one step: each run is tagged from its first line, by the shortest start of its id that tells it apart', () => {
		const lines = printed(fixtureLines('parallel-same-expert.ndjson'));
		const helper = lines.filter(line => line.includes('[release-helper'));
		expect(helper.length).toBeGreaterThan(10);
		// inl8mi76… and inl8q3d0…: four characters are not enough, five are.
		expect(helper.every(line => /^ {2}\[release-helper·inl8[mq]\] /.test(line))).toBe(true);
		expect(helper[0]).toBe('  [release-helper·inl8m] 💬 query Summarise the commits between v2.3.0 and HEAD as changelog bullets.');
		// The answers say whose they are; the coordinator, alone of its expert, is not tagged.
		expect(lines).toContain(
			'[release-coordinator] ← release-helper·inl8m: 2.4.0: added a retry option to fetchAll, deprecated parseLegacy, fixed a timezone bug in formatDate.',
		);
		expect(lines.filter(line => line.startsWith('[release-coordinator]')).length).toBeGreaterThan(3);
	});

	it('two runs that come to overlap: the first is tagged from the moment the second starts, and stays tagged', () => {
		// real/simple.ndjson's run, and a second run of its expert in its job started after the first's query.
		const a = fixtureLines('real/simple.ndjson');
		const b = a.map(line => {
			const event = JSON.parse(line) as Record<string, unknown>;
			return JSON.stringify({...event, id: `${String(event['id'])}b`, runId: 'acon7zzzzzzzzzzzzzzzzzzz'});
		});
		const lines = printed([...a.slice(0, 4), ...b.slice(0, 4), ...a.slice(4), ...b.slice(4)]);
		const runs = lines.filter(line => line.startsWith('[simple-expert'));
		expect(runs[0]).toMatch(/^\[simple-expert\] 💬 query /);
		expect(runs.slice(1).every(line => /^\[simple-expert·acon[79]\] /.test(line))).toBe(true);
		expect(runs.filter(line => line.includes('✓ run completed'))).toEqual([
			'[simple-expert·acon9] ✓ run completed · 1 step',
			'[simple-expert·acon7] ✓ run completed · 1 step',
		]);
	});

	it('runs of one expert one after the other, and a resumed run in its pane, are not tagged', () => {
		for (const fixture of ['continue-followup.ndjson', 'nested-delegate.ndjson', 'real/boss-nested-parallel.ndjson', 'parallel-delegate.ndjson']) {
			expect(printed(fixtureLines(fixture)).some(line => line.includes('·') && /\[[^\]]*·/.test(line))).toBe(false);
		}
	});
});

describe('shortestStart', () => {
	it('is the shortest start of at least four characters that no other id shares, or the whole id', () => {
		expect(shortestStart('3f9a1234', ['3f9a1234'])).toBe('3f9a');
		expect(shortestStart('3f9a1234', ['b71c0000', '3f9a1234'])).toBe('3f9a');
		expect(shortestStart('3f9a1234', ['3f9a1999'])).toBe('3f9a12');
		expect(shortestStart('run', ['runner'])).toBe('run');
		expect(shortestStart('abcd', ['abcd#2'])).toBe('abcd');
		expect(shortestStart('abcd#2', ['abcd'])).toBe('abcd#');
	});
});
