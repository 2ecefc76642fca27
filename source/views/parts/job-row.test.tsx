import {Box} from 'ink';
import {describe, expect, it} from 'vitest';
import stringWidth from 'string-width';
import {waitForFrame} from '../../../test/helpers/app.js';
import {fixturePath, modelFromFixtures, modelFromText, runByExpert} from '../../../test/helpers/load.js';
import {readFileSync} from 'node:fs';
import {renderView} from '../../../test/helpers/views.js';
import {endInput, type Job, type Model} from '../../model/state.js';
import type {PriceTable} from '../../query/prices.js';
import {formatDateTime} from '../../text/format.js';
import {Line} from './line.js';
import {JobRow} from './job-row.js';

function jobOf(model: Model, expertKey: string): Job {
	const job = model.jobs.get(runByExpert(model, expertKey).jobId);
	if (!job) throw new Error(`no job for ${expertKey}`);
	return job;
}

async function row(model: Model, job: Job, options: {collapsed?: boolean; prices?: PriceTable; width?: number} = {}): Promise<string> {
	const element = <JobRow model={model} job={job} number={2} count={3} collapsed={options.collapsed ?? false} selected={false} />;
	// Wide enough by default that the whole row shows on one line, as the tree would give it on a wide screen.
	const width = options.width ?? 200;
	const view = renderView(
		<Box width={width}>
			<Line width={width}>{element}</Line>
		</Box>,
		{model, env: {prices: options.prices}},
	);
	const frame = await waitForFrame(view, text => text.includes('·'));
	view.unmount();
	return frame;
}

describe('a job row', () => {
	it('shows which job, its coordinator, status, steps, tokens, cost, duration, start time and id', async () => {
		const model = modelFromFixtures('real/simple.ndjson', 'demo.ndjson', 'delegate-failure.ndjson');
		const job = jobOf(model, 'bugfix-lead');
		const started = formatDateTime(runByExpert(model, 'bugfix-lead').startedAt!);
		// The figures are the whole job's: both runs of the coordinator and its two children.
		expect(await row(model, job)).toBe(`▾ job 2/3 · bugfix-lead ✓ completed · 14 steps · 43k↑ 907↓ $0.15 · 10.2s · ${started} · nibyyurl65b4kj4hbi6jlvhk`);
		expect(await row(model, job, {collapsed: true})).toMatch(/^▸ job 2\/3 · bugfix-lead ✓ completed · /);
	});

	it('regression: a job whose coordinator the input left running read "running" on its row; it ended without a final event, as its pane and the header say', async () => {
		const lines = readFileSync(fixturePath('demo.ndjson'), 'utf8')
			.split('\n')
			.filter(line => line !== '');
		// The log stops in the coordinator's first steps, and nothing more will come.
		const model = modelFromText(readFileSync(fixturePath('real/simple.ndjson'), 'utf8') + lines.slice(0, 8).join('\n') + '\n');
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		expect(await row(model, jobOf(model, 'bugfix-lead'))).toMatch(/^▾ job 2\/3 · bugfix-lead ✗ ended without a final event · /);
	});

	it('regression: a Claude Code 2.0 job, whose lines carry no time, showed – for a duration its result gives (1,889 ms)', async () => {
		const model = modelFromFixtures('claude-code/agentcmd-simple-cc2.0.28.ndjson');
		// No start time either: the stream gives none.
		expect(await row(model, jobOf(model, 'claude'))).toBe(
			'▾ job 2/3 · claude ✓ completed · 1 step · 22k↑ 5↓ $0.08 · 1.9s · 13a34b05-d65d-4e6e-bb70-00ef7be077a8',
		);
	});

	it('shows ? for a cost the price table cannot tell', async () => {
		const model = modelFromFixtures('real/simple.ndjson', 'demo.ndjson');
		const prices: PriceTable = {source: 'test', date: null, file: null, models: {}};
		expect(await row(model, jobOf(model, 'bugfix-lead'), {prices})).toMatch(/ · 43k↑ 907↓ \? · 10\.2s · /);
	});

	it('folded, says after its figures why the job failed; open, leaves that to the panes under it', async () => {
		const model = modelFromFixtures('real/simple.ndjson', 'demo.ndjson', 'delegate-failure.ndjson');
		endInput(model, {exitCode: 1, lastStderr: undefined});
		const job = jobOf(model, 'release-coordinator');
		expect(await row(model, job, {collapsed: true})).toMatch(
			/^▸ job 2\/3 · release-coordinator ✗ job ended while waiting · 4 steps · .* · changelog-writer failed: AI_APICallError: Overloaded; the command exited 1 · \d{4}-/,
		);
		expect(await row(model, job)).toMatch(/^▾ job 2\/3 · release-coordinator ✗ job ended while waiting · \d+ steps · /);
		const coordinator = runByExpert(model, 'simple-expert');
		coordinator.status = 'stoppedByError';
		coordinator.error = {name: 'Boom', message: 'the first line\nthe second'};
		expect(await row(model, jobOf(model, 'simple-expert'), {collapsed: true})).toMatch(
			/^▸ job 2\/3 · simple-expert ✗ error · 1 step · .* · Boom: the first line · \d{4}-/,
		);
	});

	it('regression: at 80 columns a folded failed job\u2019s reason pushed its steps, tokens, cost and time off the row; the reason is what is cut', async () => {
		const model = modelFromFixtures('real/simple.ndjson', 'demo.ndjson', 'delegate-failure.ndjson');
		const coordinator = runByExpert(model, 'simple-expert');
		coordinator.status = 'stoppedByError';
		coordinator.error = {name: 'AI_APICallError', message: `Overloaded: ${'the provider is busy, try again later; '.repeat(4)}`};
		const job = jobOf(model, 'simple-expert');
		const folded = await row(model, job, {collapsed: true, width: 80});
		expect(stringWidth(folded)).toBeLessThanOrEqual(80);
		expect(folded).toMatch(/^▸ job 2\/3 · simple-expert ✗ error · 1 step · [\d.k]+↑ [\d.k]+↓ \S+ · 308ms · AI_API…$/);
	});

	it('shows what the log names it inert: escape sequences in an expert key or job id never reach the terminal', async () => {
		const model = modelFromFixtures('real/simple.ndjson', 'demo.ndjson');
		const job = jobOf(model, 'bugfix-lead');
		for (const runId of job.runIds) model.runs.get(runId)!.expertKey = 'lead\u001b[2J\nnext';
		const hostile = {...job, jobId: 'job\u001b]0;title\u0007'};
		const frame = await row(model, hostile);
		expect(frame).not.toContain('\u001b');
		expect(frame).toMatch(/^▾ job 2\/3 · lead␛\[2J/);
	});

	it('is cut to the width it is given, the start time and id going first', async () => {
		const model = modelFromFixtures('real/simple.ndjson', 'demo.ndjson');
		const frame = await row(model, jobOf(model, 'bugfix-lead'), {width: 60});
		expect(stringWidth(frame)).toBeLessThanOrEqual(60);
		expect(frame).toMatch(/^▾ job 2\/3 · bugfix-lead ✓ completed · 14 steps · 43k↑ 907↓ ?…$/);
	});
});
