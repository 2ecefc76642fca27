import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {repoRoot} from '../helpers/cli-process.js';
import {perscopeInProcess as perscope} from '../helpers/cli-in-process.js';
import {describeHeadlessMode, goldenFixtures, goldenPath, modes, trickle} from './headless-outputs.js';

// --json of every fixture: its golden file, and the same output however the bytes arrive (headless-outputs.ts).
describeHeadlessMode(modes.json);

/*
 * Properties of every fixture's output, read from its golden files: the golden tests hold each to what the CLI
 * writes (in this file and headless-summary-json.test.ts), so the CLI is not run a second time for them.
 */
describe('output properties that hold for every fixture', () => {
	it.each(goldenFixtures())('%s: --json is one valid JSON activity per line, each after the one before it in its run', fixture => {
		const lines = readFileSync(goldenPath(fixture, modes.json.golden), 'utf8').trimEnd().split('\n').filter(Boolean);
		const activities: Array<{id: string; runId: string; previousActivityId: string | null; type: string}> = lines.map(line => JSON.parse(line));
		const seen = new Set<string>();
		for (const activity of activities) {
			// The chain only points backwards: every previous activity was printed before.
			if (activity.previousActivityId !== null) expect(seen.has(activity.previousActivityId)).toBe(true);
			seen.add(activity.id);
		}

		const summary = JSON.parse(readFileSync(goldenPath(fixture, modes.summaryJson.golden), 'utf8'));
		const counted = summary.jobs
			.flatMap((job: {runs: Array<{activities: number}>}) => job.runs)
			.reduce((sum: number, runSummary: {activities: number}) => sum + runSummary.activities, 0);
		expect(counted).toBe(activities.length);
	});
});

describe('results reach their activities in --json (#21.4)', () => {
	it("a delegate read from a pipe carries the child's answer, as it does from the file", async () => {
		const file = join(repoRoot, 'fixtures/real/delegate.ndjson');
		const piped = await perscope(['--json', '-'], trickle(readFileSync(file), 7, 64));
		const delegate = piped.stdout
			.split('\n')
			.filter(Boolean)
			.map(line => JSON.parse(line))
			.find(activity => activity.type === 'delegate');
		expect(delegate.result.text).toBe("The workspace contains one file: README.txt (one line: 'hello from the workspace').");
	});

	it('an interactive question in one file carries the answer that the next file of the job holds', async () => {
		const files = ['interactive-1.ndjson', 'interactive-2-continue.ndjson'].map(name => join(repoRoot, 'fixtures/real', name));
		const {stdout} = await perscope(['--json', ...files]);
		const ask = stdout
			.split('\n')
			.filter(Boolean)
			.map(line => JSON.parse(line))
			.find(activity => activity.type === 'interactiveTool');
		expect(ask.result).toEqual({text: 'Blue, please.', error: null});
	});

	it("--print says what a delegate answered, on a line of its own after the child's work", async () => {
		const {stdout} = await perscope(['--print', join(repoRoot, 'fixtures/real/delegate.ndjson')]);
		const lines = stdout.split('\n');
		const answer = lines.indexOf("[coordinator] ← child-expert: The workspace contains one file: README.txt (one line: 'hello from the workspace').");
		expect(answer).toBeGreaterThan(lines.findIndex(line => line.includes('[child-expert] ✅ complete')));
	});
});
