import {readdirSync, readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {buildSummary} from '../../source/output/summary.js';
import {fixturesDir, modelFromFixtures} from '../helpers/load.js';

/*
 * Each fixture's expected run tree was derived by hand from docs/model-rules.md, independently of the
 * reducer. The reducer must arrive at exactly the same jobs, runs, statuses, steps, usage and activities.
 */

type Expected = {
	jobs: Array<{
		jobId: string;
		status: string;
		steps: number;
		usage: Record<string, number>;
		runs: Array<{
			runId: string;
			expertKey: string;
			parentRunId: string | null;
			resumesRunId: string | null;
			status: string;
			steps: number;
			usage: Record<string, number>;
			activities: number;
			activityTypes: string[];
		}>;
	}>;
	unknownEvents: Record<string, number>;
	diagnostics: number;
};

/** Agent CLIs' streams: `codex-NAME` is `codex/NAME.jsonl`, `codex-sample-NAME` `codex/samples/NAME.jsonl` (gemini and opencode alike). */
const agentCliFixture = /^(codex|gemini|opencode)-(sample-)?(.+)$/;

function fixtureFor(expectedName: string): string[] {
	const base = expectedName.replace(/\.json$/, '');
	const agentCli = agentCliFixture.exec(base);
	if (agentCli) return [`${agentCli[1]}/${agentCli[2] ? 'samples/' : ''}${agentCli[3]}.jsonl`];
	if (base === 'real-interactive-2-continue') return ['real/interactive-2-continue.ndjson'];
	// One session resumed in a second process: two files, one job.
	if (base === 'claude-code-probe-resume-1-and-2') return ['claude-code/probe-resume1-cc2.1.195.ndjson', 'claude-code/probe-resume2-cc2.1.195.ndjson'];
	if (base.startsWith('claude-code-')) return [`claude-code/${base.slice(12)}.ndjson`];
	if (base.startsWith('amp-')) return [`amp/${base.slice(4)}.ndjson`];
	if (base.startsWith('released-')) return [`released/${base.slice(9)}.ndjson`];
	return base.startsWith('real-') ? [`real/${base.slice(5)}.ndjson`] : [`${base}.ndjson`];
}

const expectedFiles = readdirSync(`${fixturesDir}expected`).filter(name => name.endsWith('.json'));

describe('every fixture reduces to the run tree it encodes', () => {
	it.each(expectedFiles)('%s', name => {
		const expected: Expected = JSON.parse(readFileSync(`${fixturesDir}expected/${name}`, 'utf8'));
		const model = modelFromFixtures(...fixtureFor(name));
		const summary = buildSummary(model);
		const actual = {
			jobs: summary.jobs.map(job => ({
				jobId: job.jobId,
				status: job.status,
				steps: job.steps,
				usage: job.usage,
				runs: job.runs.map(run => ({
					runId: run.runId,
					expertKey: run.expertKey,
					parentRunId: run.parentRunId,
					resumesRunId: run.resumesRunId,
					status: run.status,
					steps: run.steps,
					usage: run.usage,
					activities: run.activities,
					activityTypes: model.activities.filter(activity => activity.runId === run.runId).map(activity => activity.type),
				})),
			})),
			unknownEvents: summary.unknownEvents,
			diagnostics: summary.diagnostics.length,
		};
		expect(actual).toEqual(expected);
	});
});
