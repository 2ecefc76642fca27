import {mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {gzipSync} from 'node:zlib';
import {afterEach, describe, expect, it} from 'vitest';
import {Ingest} from '../../source/load/ingest.js';
import {resolveInputs} from '../../source/input/inputs.js';
import {runSources} from '../../source/input/run-sources.js';
import {repoRoot, startCli} from '../helpers/cli-process.js';

const directories: string[] = [];
function temporaryDirectory(): string {
	const directory = mkdtempSync(join(tmpdir(), 'perscope-gzip-'));
	directories.push(directory);
	return directory;
}

afterEach(() => {
	for (const directory of directories.splice(0)) rmSync(directory, {recursive: true, force: true});
});

async function summaryJson(args: string[]): Promise<{stdout: string; code: number | null; stderr: string}> {
	const run = startCli(['--summary', '--json', ...args]);
	const {code} = await run.exit;
	return {stdout: run.stdout(), code, stderr: run.stderr()};
}

describe('compressed logs', () => {
	it('gives the same --summary --json for a .gz (and a gzip file without the name) as for the plain file', async () => {
		const directory = temporaryDirectory();
		const plain = join(repoRoot, 'fixtures/real/tools.ndjson');
		const named = join(directory, 'tools.ndjson.gz');
		const unnamed = join(directory, 'tools.log');
		writeFileSync(named, gzipSync(readFileSync(plain)));
		writeFileSync(unnamed, readFileSync(named));

		const [expected, fromNamed, fromUnnamed] = await Promise.all([summaryJson([plain]), summaryJson([named]), summaryJson([unnamed])]);
		expect(expected.code).toBe(0);
		expect(JSON.parse(expected.stdout)).toMatchObject({events: expect.any(Number)});
		expect(fromNamed).toEqual(expected);
		expect(fromUnnamed).toEqual(expected);
	}, 15_000);

	it('merges several files, compressed or not, into one model', async () => {
		const directory = temporaryDirectory();
		const compressed = join(directory, 'simple.ndjson.gz');
		writeFileSync(compressed, gzipSync(readFileSync(join(repoRoot, 'fixtures/real/simple.ndjson'))));
		const both = await summaryJson([compressed, 'fixtures/real/error.ndjson']);
		const plain = await summaryJson(['fixtures/real/simple.ndjson', 'fixtures/real/error.ndjson']);
		expect(both).toEqual(plain);
		expect(JSON.parse(both.stdout).jobs).toHaveLength(2);
	}, 15_000);

	it('reports progress in compressed bytes, and a damaged file as an error after the events before the damage', async () => {
		const directory = temporaryDirectory();
		const whole = gzipSync(readFileSync(join(repoRoot, 'fixtures/real/tools.ndjson')));
		const good = join(directory, 'good.gz');
		writeFileSync(good, whole);
		const ingest = new Ingest({maxLineBytes: 1024 * 1024});
		const running = runSources(resolveInputs([good], {stdinIsTTY: false}), ingest);
		expect(await running.done).toBe(0);
		expect(running.states[0]).toMatchObject({bytesRead: whole.length, bytesTotal: statSync(good).size, live: false, error: undefined});

		const damaged = join(directory, 'damaged.gz');
		writeFileSync(damaged, whole.subarray(0, Math.floor(whole.length * 0.6)));
		const run = await summaryJson([damaged]);
		expect(run.code).toBe(1);
		const summary = JSON.parse(run.stdout);
		expect(summary.events).toBeGreaterThan(0);
		expect(summary.diagnostics).toEqual([{line: 0, source: damaged, reason: `cannot read ${damaged}: unexpected end of file`}]);
	}, 15_000);
});
