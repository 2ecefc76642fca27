import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {startCli} from '../helpers/cli-process.js';
import {fixturePath, perstackLine} from '../helpers/load.js';

async function run(args: string[]) {
	const cli = startCli(args);
	const exit = await cli.exit;
	return {code: exit.code, stdout: cli.stdout(), stderr: cli.stderr(), lines: cli.stdoutLines};
}

const demo = fixturePath('demo.ndjson');

describe('--filter on the transcripts', () => {
	it('--print shows the matching activities only, and counts the hidden ones on stderr', async () => {
		const result = await run(['--print', '--filter', 'type:exec', demo]);
		expect(result.code).toBe(0);
		const [job, ...lines] = result.stdout.trimEnd().split('\n');
		expect(job).toBe('── job nibyyurl65b4kj4hbi6jlvhk · bugfix-lead · started 2026-11-23 00:00:01 UTC');
		expect(lines).toHaveLength(4);
		expect(lines.every(line => line.includes('⚡ exec'))).toBe(true);
		expect(result.stderr).toBe('perscope: 22 activities hidden by the filter\n');
	});

	it('--json emits the matching activities; repeated --filter flags add terms, and a term may start with -', async () => {
		const result = await run(['--json', '--filter', 'expert:test-runner', '--filter', '-type:exec', demo]);
		expect(result.code).toBe(0);
		const activities: unknown[] = result.stdout
			.trimEnd()
			.split('\n')
			.map(line => JSON.parse(line));
		expect(activities.length).toBeGreaterThan(0);
		for (const activity of activities) {
			expect(activity).toMatchObject({expertKey: 'test-runner'});
			expect(activity).not.toMatchObject({type: 'exec'});
		}
	});

	it('errors finds the failing command', async () => {
		const result = await run(['--print', '--filter=errors', demo]);
		expect(result.stdout).toContain('[test-runner] ⚡ exec npm test ✗ Command failed');
		// The job's line, then the one error.
		expect(result.stdout.trimEnd().split('\n')).toHaveLength(2);
	});

	it('--summary is never filtered', async () => {
		const plain = await run(['--summary', demo]);
		const filtered = await run(['--summary', '--filter', 'type:exec', demo]);
		expect(filtered.stdout).toBe(plain.stdout);
		expect(filtered.stderr).toBe('');
	});

	it('a bad filter is a usage error: the reason in one line that points to --help, exit 2', async () => {
		const result = await run(['--print', '--filter', 'tpye:exec', demo]);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/^perscope: --filter: unknown filter "tpye:".*\(see perscope --help\)\n$/);
		expect(result.stdout).toBe('');
	});
});

describe('--replay', () => {
	const dir = mkdtempSync(join(tmpdir(), 'perscope-replay-'));
	afterAll(() => rmSync(dir, {recursive: true, force: true}));

	it('prints activities paced by their timestamps, SPEED times as fast', async () => {
		const path = join(dir, 'paced.ndjson');
		const t = 1_700_000_000_000;
		const stamps = [0, 1000, 2000, 3000];
		writeFileSync(path, `${stamps.map((stamp, n) => perstackLine('retry', {reason: `r${n}`}, {timestamp: t + stamp})).join('\n')}\n`);
		const started = Date.now();
		const result = await run(['--print', '--replay=10', path]);
		const elapsed = Date.now() - started;
		expect(result.code).toBe(0);
		// Between the marks of where its job starts and ends, and the line saying its run never ended.
		const activities = result.lines.filter(line => !line.text.startsWith('── job ') && !line.text.includes('ended without a final event'));
		expect(activities.map(line => line.text)).toEqual(['[expert] 🔁 retry r0', '[expert] 🔁 retry r1', '[expert] 🔁 retry r2', '[expert] 🔁 retry r3']);
		// 100 ms apart at ten times the speed: the last line cannot come before 300 ms of replay (a gap measured
		// at this end can shrink when one line is read late, so only the whole span is a sure lower bound), and
		// real time would put 3 s between the first line and the last.
		expect(activities.at(-1)!.at - started).toBeGreaterThanOrEqual(300);
		expect(activities.at(-1)!.at - activities[0]!.at).toBeLessThan(2000);
		expect(elapsed).toBeLessThan(8000);
	});

	it('--replay alone is real time and does not take the file name for its speed', async () => {
		const result = await run(['--print', '--replay', fixturePath('real/simple-text.ndjson')]);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('✅ complete');
	});

	it('a speed that is not a positive number, or replaying a followed file, is a usage error', async () => {
		const bad = await run(['--print', '--replay=0', demo]);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toContain('--replay=SPEED needs a positive number');
		const follow = await run(['--print', '--replay=5', '--follow', demo]);
		expect(follow.code).toBe(2);
		expect(follow.stderr).toContain('cannot be combined with --follow');
	});
});
