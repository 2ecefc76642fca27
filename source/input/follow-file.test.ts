import {appendFileSync, copyFileSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {gzipSync} from 'node:zlib';
import {afterEach, describe, expect, it} from 'vitest';
import {Ingest} from '../load/ingest.js';
import {resolveInputs} from './inputs.js';
import {RawEvents} from './reread/raw-events.js';
import {runSources} from './run-sources.js';
import {countOf, startCli, waitUntil} from '../../test/helpers/cli-process.js';
import {runLines} from '../../test/helpers/events.js';

const directories: string[] = [];
function temporaryDirectory(): string {
	const directory = mkdtempSync(join(tmpdir(), 'perscope-follow-'));
	directories.push(directory);
	return directory;
}

afterEach(() => {
	for (const directory of directories.splice(0)) rmSync(directory, {recursive: true, force: true});
});

describe('perscope --print -f FILE (a real process following a real file)', () => {
	it('shows appended, truncated and rotated events exactly once, and ends cleanly on SIGINT', async () => {
		const directory = temporaryDirectory();
		const log = join(directory, 'events.ndjson');
		// Started before the file exists: it is waited for.
		const run = startCli(['--print', '-f', log]);
		const context = () => `stdout:\n${run.stdout()}\nstderr:\n${run.stderr()}`;
		const shown = (number: number) => () => run.stdout().includes(`follow answer ${number}`);

		appendFileSync(log, runLines('follow', 1) + runLines('follow', 2));
		await waitUntil(shown(2), 'events 1 and 2', context);

		// A line written in two pieces is one event, shown once.
		const three = runLines('follow', 3);
		appendFileSync(log, three.slice(0, 40));
		appendFileSync(log, three.slice(40));
		await waitUntil(shown(3), 'event 3', context);

		// copytruncate: the old lines are copied away, the file starts again (smaller than before).
		copyFileSync(log, `${log}.1`);
		truncateSync(log, 0);
		appendFileSync(log, runLines('follow', 4));
		await waitUntil(shown(4), 'event 4 after the truncation', context);

		// Rotation: the file is renamed away and a new one is created at the path.
		renameSync(log, `${log}.2`);
		writeFileSync(log, runLines('follow', 5));
		await waitUntil(shown(5), 'event 5 after the rotation', context);
		appendFileSync(log, runLines('follow', 6));
		await waitUntil(shown(6), 'event 6', context);

		run.child.kill('SIGINT');
		expect(await run.exit).toEqual({code: 0, signal: null});
		for (const number of [1, 2, 3, 4, 5, 6]) {
			expect(countOf(run.stdout(), `💬 query follow query ${number}\n`), context()).toBe(1);
			expect(countOf(run.stdout(), `✅ complete follow answer ${number}\n`), context()).toBe(1);
		}

		expect(run.stderr()).toBe('');
	}, 20_000);

	it('flushes a last line without a newline when stopped', async () => {
		const directory = temporaryDirectory();
		const log = join(directory, 'events.ndjson');
		writeFileSync(log, runLines('tail', 1).trimEnd());
		const run = startCli(['--print', '--follow', log]);
		await waitUntil(
			() => run.stdout().includes('tail query 1'),
			'the query',
			() => run.stderr(),
		);
		run.child.kill('SIGTERM');
		expect(await run.exit).toEqual({code: 0, signal: null});
		expect(run.stdout()).toContain('✅ complete tail answer 1\n');
	}, 15_000);

	it('says on stderr that it waits for a file that does not exist yet, and when the file appears', async () => {
		const log = join(temporaryDirectory(), 'later.ndjson');
		const run = startCli(['--print', '--follow', log]);
		await waitUntil(
			() => run.stderr().includes('later.ndjson does not exist yet'),
			'the note that it waits',
			() => run.stderr(),
		);
		writeFileSync(log, runLines('later', 1));
		await waitUntil(
			() => run.stdout().includes('later query 1'),
			'the query',
			() => run.stderr(),
		);
		run.child.kill('SIGTERM');
		expect(await run.exit).toEqual({code: 0, signal: null});
		expect(run.stderr()).toBe(`perscope: ${log} does not exist yet; waiting for it (--follow)\nperscope: ${log} appeared; reading it\n`);
	}, 15_000);

	it('regression: a path waited for that appeared as a gzip file was read as its compressed bytes (bad lines): it is read as a compressed file given is', async () => {
		const directory = temporaryDirectory();
		const log = join(directory, 'events.ndjson.gz');
		const run = startCli(['--print', '-f', log]);
		await waitUntil(() => run.stderr().includes('does not exist yet'), 'waiting for the file', run.stderr);
		writeFileSync(log, gzipSync(runLines('follow', 1) + runLines('follow', 2)));
		// Read to its end, once, as a compressed file given with -f is: it ends by itself.
		expect(await run.exit).toEqual({code: 0, signal: null});
		expect(run.stderr()).not.toContain('not JSON');
		expect(countOf(run.stdout(), '✅ complete follow answer 2\n')).toBe(1);
	});

	it('without --follow, a missing file is still an error', async () => {
		const run = startCli(['--print', join(temporaryDirectory(), 'missing.ndjson')]);
		expect(await run.exit).toEqual({code: 1, signal: null});
		expect(run.stderr()).toMatch(/^perscope: cannot read .*missing\.ndjson: no such file\n$/);
	}, 15_000);
});

describe('runSources with follow', () => {
	it('follows several files at once, holds a partial line until its newline, and stops on stop()', async () => {
		const directory = temporaryDirectory();
		const first = join(directory, 'first.ndjson');
		const second = join(directory, 'second.ndjson');
		writeFileSync(first, runLines('first', 1));
		const ingest = new Ingest({maxLineBytes: 1024 * 1024});
		let changes = 0;
		const running = runSources(resolveInputs([first, second], {stdinIsTTY: false, follow: true}), ingest, {onChange: () => changes++});
		const [firstState, secondState] = running.states;
		const queries = () => ingest.model.activities.filter(activity => activity.type === 'query').length;

		await waitUntil(() => firstState!.following && secondState!.waiting, 'the first file followed and the second waited for');
		expect(queries()).toBe(1);

		const half = runLines('second', 1).slice(0, 50);
		writeFileSync(second, half);
		await waitUntil(() => secondState!.bytesRead === half.length, 'the partial line read');
		expect(secondState!.waiting).toBe(false);
		expect(ingest.model.diagnostics).toEqual([]);
		expect(queries()).toBe(1);

		appendFileSync(second, runLines('second', 1).slice(50));
		appendFileSync(first, runLines('first', 2));
		await waitUntil(() => queries() === 3, 'both files followed');
		expect(ingest.model.diagnostics).toEqual([]);
		expect(firstState!.bytesRead).toBe(firstState!.bytesTotal);
		expect(changes).toBeGreaterThan(0);

		running.stop();
		expect(await running.done).toBe(0);
		expect(running.states.map(state => [state.live, state.following])).toEqual([
			[false, false],
			[false, false],
		]);
	}, 15_000);
});

describe('raw events of followed files', () => {
	it('are remembered rather than re-read: a followed file may be truncated or rotated under its offsets', async () => {
		const directory = temporaryDirectory();
		const log = join(directory, 'events.ndjson');
		writeFileSync(log, runLines('raw', 1));
		const plan = resolveInputs([log], {stdinIsTTY: false, follow: true});
		const raw = new RawEvents();
		raw.addPlan(plan);
		const ingest = new Ingest({maxLineBytes: 1024 * 1024, onLine: line => raw.remember(line)});
		const running = runSources(plan, ingest);
		await waitUntil(() => running.states[0]!.following, 'the file read');
		truncateSync(log, 0);
		const query = ingest.model.activities[0]!;
		expect(JSON.parse(raw.read(query.ref) ?? 'null')).toMatchObject({type: 'startRun'});
		running.stop();
		expect(await running.done).toBe(0);
	});
});
