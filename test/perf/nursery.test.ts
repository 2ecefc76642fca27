import {execFileSync, spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, describe, expect, it} from 'vitest';
import {cliPath, repoRoot} from '../helpers/cli-process.js';

/*
 * The CLI stops V8's young generation at 4 MB a semi-space (load/young-generation.ts): left to grow, it reaches
 * 16 MB a semi-space on a large load and stays resident, 20-60 MB of the peak memory #22's targets count.
 * The CLI is run with a preload that reports the largest the nursery ("new_space") was, as V8 counts it.
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-nursery-'));

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

const reporter = join(dir, 'report-nursery.cjs');
writeFileSync(
	reporter,
	`const v8 = require('node:v8');
let largest = 0;
const look = () => { for (const space of v8.getHeapSpaceStatistics()) if (space.space_name === 'new_space') largest = Math.max(largest, space.space_size); };
setInterval(look, 2).unref();
process.on('exit', () => { look(); process.stderr.write('nursery bytes ' + largest + '\\n'); });
`,
);

describe("the CLI's young generation", () => {
	it('stops at two semi-spaces of 4 MB through the load of 20,000 runs', () => {
		const log = join(dir, 'wide.ndjson');
		execFileSync(process.execPath, [join(repoRoot, 'build/tools/generate-log.js'), '--shape', 'wide', '--runs', '20000', '--out', log], {stdio: 'ignore'});
		const result = spawnSync(process.execPath, ['--require', reporter, cliPath, '--summary', '--json', log], {
			cwd: repoRoot,
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024,
		});
		expect(result.status, result.stderr).toBe(0);
		expect(JSON.parse(result.stdout)).toMatchObject({events: 40_000});
		const largest = Number(/nursery bytes (\d+)/.exec(result.stderr)?.[1] ?? Number.NaN);
		// Left to grow, it is 16 MB at the end of this load, and 32 MB on the shapes of the bench.
		expect(largest, result.stderr).toBeLessThanOrEqual(8 * 1024 * 1024);
	});
});

describe('the young generation once a load is over (YoungGenerationCap.release)', () => {
	it('grows again past the cap: the viewer has its work after a large load ahead of it', () => {
		// In a process of its own: the flag is the process's. Objects that all survive, as the viewer's work after a load
		// makes them, grow the nursery until the cap stops it; released, the same grow it again.
		const script = join(dir, 'release.mjs');
		writeFileSync(
			script,
			`import {getHeapSpaceStatistics} from 'node:v8';
import {YoungGenerationCap} from ${JSON.stringify(pathToFileURL(join(repoRoot, 'dist/load/young-generation.js')).href)};
const nursery = () => getHeapSpaceStatistics().find(space => space.space_name === 'new_space').space_size;
const cap = new YoungGenerationCap();
let kept = [];
const grow = (during) => {
	let largest = 0;
	for (let round = 0; round < 300; round++) {
		for (let i = 0; i < 5000; i++) kept.push({round, i, list: [i]});
		during();
		largest = Math.max(largest, nursery());
	}
	return largest;
};
const capped = grow(() => cap.afterChunk());
kept = [];
cap.release();
const released = grow(() => cap.afterChunk());
process.stdout.write(JSON.stringify({capped, released}));
`,
		);
		const result = spawnSync(process.execPath, [script], {encoding: 'utf8'});
		expect(result.status, result.stderr).toBe(0);
		const {capped, released} = JSON.parse(result.stdout) as {capped: number; released: number};
		expect(capped).toBeLessThanOrEqual(8 * 1024 * 1024);
		expect(released).toBeGreaterThan(8 * 1024 * 1024);
	});
});
