import {spawnSync} from 'node:child_process';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {cliPath, repoRoot} from '../helpers/cli-process.js';
import {scratchDirectories} from '../helpers/scratch.js';

const scratch = scratchDirectories('perscope-gen-');

/*
 * `npm run gen -- --dialect D` (the bench's agent-CLI streams, #36): rounds of a dialect's real recordings, each
 * with ids of its own. A round must read exactly as its recording does, as a session of its own.
 */

const recordings = {
	'claude-code': ['claude-code/nested-subagents.ndjson', 'claude-code/partial-messages.ndjson', 'claude-code/failing-tools.ndjson'],
	codex: ['codex/edit-and-test.jsonl', 'codex/mcp-and-retry.jsonl', 'codex/sub-agent.jsonl'],
	'codex-rollout': ['codex/rollout-tui.jsonl', 'codex/rollout-edit-and-test.jsonl'],
	gemini: ['gemini/fix-and-delegate.jsonl', 'gemini/auto-routed.jsonl', 'gemini/retried-500.jsonl'],
} as const;

type Summary = {
	events: number;
	diagnosticCount?: number;
	unknownEvents: Record<string, number>;
	jobs: Array<{
		jobId: string;
		status: string;
		steps: number;
		usage: unknown;
		runs: Array<{expertKey: string; status: string; steps: number; usage: unknown; activities: number}>;
	}>;
};

function summaryOf(file: string): Summary {
	const result = spawnSync(process.execPath, [cliPath, '--summary', '--json', file], {encoding: 'utf8'});
	expect(result.status, result.stderr).toBe(0);
	return JSON.parse(result.stdout) as Summary;
}

/** A job's figures without its ids. */
function figures(summary: Summary) {
	return summary.jobs.map(job => ({
		status: job.status,
		steps: job.steps,
		usage: job.usage,
		runs: job.runs.map(run => ({expert: run.expertKey, status: run.status, steps: run.steps, usage: run.usage, activities: run.activities})),
	}));
}

describe('generate-log --dialect', () => {
	for (const [dialect, files] of Object.entries(recordings)) {
		it(`${dialect}: two rounds of each recording read as the recordings do, each round a session of its own, with no diagnostics`, () => {
			const dir = scratch();
			const out = join(dir, 'stream.jsonl');
			const generated = spawnSync(process.execPath, ['build/tools/generate-log.js', '--dialect', dialect, '--jobs', String(files.length * 2), '--out', out], {
				cwd: repoRoot,
				encoding: 'utf8',
			});
			expect(generated.status, generated.stderr).toBe(0);
			const joined = join(dir, 'recordings.jsonl');
			const once = files.map(file => readFileSync(join(repoRoot, 'fixtures', file), 'utf8').trimEnd() + '\n').join('');
			writeFileSync(joined, once);

			const expected = summaryOf(joined);
			const actual = summaryOf(out);
			expect(actual.diagnosticCount ?? 0).toBe(0);
			expect(actual.unknownEvents).toEqual({});
			expect(actual.events).toBe(expected.events * 2);
			expect(figures(actual)).toEqual([...figures(expected), ...figures(expected)]);
			expect(new Set(actual.jobs.map(job => job.jobId)).size).toBe(actual.jobs.length);
		});
	}
});
