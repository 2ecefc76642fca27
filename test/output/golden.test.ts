import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {agentCliFixtures, eventLogFixtures} from '../helpers/fixture-files.js';

/*
 * Golden files of the three headless outputs over every fixture, produced by the built CLI as a user runs
 * it. A change in output shows up as a diff to review; `UPDATE_GOLDEN=1 npm test` rewrites them after a
 * deliberate change, and writes those of a new fixture. A fixture without its golden files fails: a golden
 * written by the run that checks it would prove nothing.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const goldenDir = `${root}test/golden/`;

const fixtures = () => [...eventLogFixtures(), ...agentCliFixtures()];

const modes = [
	{name: 'print', args: ['--print'], extension: 'txt'},
	{name: 'json', args: ['--json'], extension: 'ndjson'},
	{name: 'summary', args: ['--summary', '--json'], extension: 'json'},
] as const;

function run(args: string[]): {stdout: string; status: number | null} {
	const result = spawnSync(process.execPath, ['dist/cli/main.js', ...args], {cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']});
	return {stdout: result.stdout, status: result.status};
}

describe.each(modes)('$name output matches its golden file', mode => {
	it.each(fixtures())('%s', fixture => {
		const {stdout, status} = run([...mode.args, `fixtures/${fixture}`]);
		expect(status).toBe(0);
		const golden = `${goldenDir}${fixture.replaceAll('/', '-').replace(/\.(nd)?jsonl?$/, '')}.${mode.name}.${mode.extension}`;
		if (process.env['UPDATE_GOLDEN'] === '1') {
			mkdirSync(goldenDir, {recursive: true});
			writeFileSync(golden, stdout);
		}

		expect(existsSync(golden), `${golden} is missing: UPDATE_GOLDEN=1 writes it; review it before committing`).toBe(true);

		expect(stdout).toBe(readFileSync(golden, 'utf8'));
	});
});

describe('output properties that hold for every fixture', () => {
	it.each(fixtures())('%s: --json is one valid JSON activity per line, each after the one before it in its run', fixture => {
		const lines = run(['--json', `fixtures/${fixture}`]).stdout.trimEnd().split('\n').filter(Boolean);
		const activities: Array<{id: string; runId: string; previousActivityId: string | null; type: string}> = lines.map(line => JSON.parse(line));
		const seen = new Set<string>();
		for (const activity of activities) {
			// The chain only points backwards: every previous activity was printed before.
			if (activity.previousActivityId !== null) expect(seen.has(activity.previousActivityId)).toBe(true);
			seen.add(activity.id);
		}

		const summary = JSON.parse(run(['--summary', '--json', `fixtures/${fixture}`]).stdout);
		const counted = summary.jobs.flatMap((job: {runs: Array<{activities: number}>}) => job.runs).reduce((sum: number, runSummary: {activities: number}) => sum + runSummary.activities, 0);
		expect(counted).toBe(activities.length);
	});
});
