import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {hasTmux, repoRoot, sessionsKilledAfterEach, shellQuote} from './tmux.js';

/*
 * Files given by path load the fast way (sources/parallel-file.ts) in the viewer too: their lines are never
 * kept, so the inspector reads each event again from the file, and the screen must keep answering keys
 * while a large file is still being read.
 */

const start = sessionsKilledAfterEach();

let directory = '';
let largeLog = '';

beforeAll(() => {
	directory = mkdtempSync(join(tmpdir(), 'perscope-e2e-load-'));
	largeLog = join(directory, 'large.ndjson');
	// About 180 MB, read in small chunks (below): seconds of loading, so that a key sent once the progress shows
	// is answered while the file is still being read, however fast the machine (a 60 MB file in default chunks
	// loaded in under half a second, and the help sometimes came after the end).
	const made = spawnSync(process.execPath, [
		join(repoRoot, 'build/tools/generate-log.js'),
		'--seed',
		'3',
		'--jobs',
		'60',
		'--steps',
		'30',
		'--children',
		'2',
		'--deltas',
		'30',
		'--message-bytes',
		'420',
		'--out',
		largeLog,
	]);
	if (made.status !== 0) throw new Error(made.stderr.toString());
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

describe.skipIf(!hasTmux())('loading a file in the viewer', () => {
	it('the inspector of a file loaded the fast way shows the raw event, read back from its line', async () => {
		// Small chunks, so the event sits well past the first chunk boundary.
		const tty = start('node test/helpers/tuned-perscope.mjs fixtures/real/delegate.ndjson', {env: {PERSCOPE_CHUNK_BYTES: '4096'}});
		await tty.waitFor('· ended');
		// Following selects the newest activity, the coordinator's final answer; the raw event ends the inspector.
		tty.keys('Enter');
		await tty.waitFor('Inspector');
		tty.keys('G');
		let screen = await tty.waitFor('"cachedInputTokens"');
		for (let page = 0; page < 20 && !screen.includes('Raw event'); page++) screen = await tty.keysThenChange('PageUp');

		const lines = screen.split('\n');
		const heading = lines.findIndex(line => line.includes('Raw event (line 49 of fixtures/real/delegate.ndjson)'));
		expect(heading).toBeGreaterThan(-1);
		expect(lines.slice(heading + 1, heading + 3).join('\n')).toMatch(/\{\s+"type": "completeRun",/);
		tty.keys('Escape', 'q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('shows load progress and answers keys while a large file is still loading', async () => {
		const tty = start(`node test/helpers/tuned-perscope.mjs ${shellQuote(largeLog)}`, {width: 120, height: 30, env: {PERSCOPE_CHUNK_BYTES: '4096'}});
		await tty.waitFor(/loading .*large\.ndjson .*%/, 15_000);
		tty.keys('?');
		// A screen read while tmux is still drawing a frame can end the loading line before its percentage, so the wait
		// is for the help with the loading line whole, or with the load over (which fails below).
		const help = await tty.waitFor(
			screen => screen.includes('expand all / collapse all') && (/loading .*large\.ndjson .*%/.test(screen) || screen.includes('· ended')),
			15_000,
		);
		// The help came up before the file was read to its end.
		expect(help).toMatch(/loading .*large\.ndjson .*%/);
		tty.keys('Escape');
		await tty.waitFor('· ended', 30_000);
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});
});
