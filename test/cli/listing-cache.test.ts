import {spawnSync} from 'node:child_process';
import {copyFileSync, mkdirSync, readFileSync, utimesSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {cliPath, repoRoot} from '../helpers/cli-process.js';
import {scratchDirectories} from '../helpers/scratch.js';

/*
 * Listings kept between runs (load/listing-cache.ts): `perscope <sessions folder>` reads every session whole to list
 * it; a session whose files are as they were when it was last listed is listed from the cache instead.
 */

const scratch = scratchDirectories('perscope-listing-cache-cli-');
const session = '0ccdcfe9-b26c-42b6-bd34-9894be0511a7';

function perscope(args: string[], cache: string) {
	return spawnSync(process.execPath, [cliPath, ...args], {cwd: repoRoot, encoding: 'utf8', env: {...process.env, XDG_CACHE_HOME: cache}});
}

describe('the listings kept between runs', () => {
	it('lists a session unchanged since from the cache, and reads one again once its file changed', () => {
		const project = scratch();
		const cache = scratch();
		const file = join(project, `${session}.jsonl`);
		copyFileSync(join(repoRoot, 'fixtures/claude-code/session-transcript-cc2.1.197.ndjson'), file);
		// A time the file system keeps exactly as given, to give it back below.
		const written = new Date('2026-11-29T14:25:00Z');
		utimesSync(file, written, written);
		const first = perscope(['--print', project], cache);
		expect(first.status, first.stderr).toBe(0);
		expect(first.stdout).toContain('Which notes file is longest? Use a sub-agent.');
		expect(JSON.parse(readFileSync(join(cache, 'perscope', 'listings.json'), 'utf8'))).toMatchObject({entries: [[file, {listing: {jobId: session}}]]});

		// The same bytes' length and time of change, other words: what the cache says it was is listed.
		writeFileSync(file, readFileSync(file, 'utf8').replaceAll('file is longest?', 'file is biggest?'));
		utimesSync(file, written, written);
		expect(perscope(['--print', project], cache).stdout).toBe(first.stdout);

		// Written to since: read again.
		utimesSync(file, written, new Date(written.getTime() + 1000));
		const again = perscope(['--print', project], cache);
		expect(again.stdout).toContain('Which notes file is biggest? Use a sub-agent.');
		expect(again.stdout.replace('biggest', 'longest')).toBe(first.stdout);
	});

	it('lists a session with its project across every project, and without one in its own project, whichever ran first', () => {
		const projects = scratch();
		const cache = scratch();
		mkdirSync(join(projects, '-home-me-app'));
		copyFileSync(join(repoRoot, 'fixtures/claude-code/session-transcript-cc2.1.197.ndjson'), join(projects, '-home-me-app', `${session}.jsonl`));
		const listed = (root: string) => (JSON.parse(perscope(['--json', root], cache).stdout) as {jobs: Array<{jobId: string; project?: string}>}).jobs;
		for (let round = 0; round < 2; round++) {
			expect(listed(join(projects, '-home-me-app'))).toEqual([expect.not.objectContaining({project: expect.anything()})]);
			expect(listed(projects)).toEqual([expect.objectContaining({jobId: session, project: '-home-me-app'})]);
		}
	});
});
