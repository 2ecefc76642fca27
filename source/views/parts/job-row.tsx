import {Text} from 'ink';
import {runErrorLine, runLook} from '../../query/run-look.js';
import {StatusText} from './status-text.js';
import {FailureText} from './failure-text.js';
import type {Job, Model} from '../../model/state.js';
import {endedWhileWaiting, jobDurationMs, jobTotals} from '../../query/tree.js';
import {jobCost} from '../../query/cost.js';
import {formatCost} from '../../text/cost.js';
import {formatCount, formatDateTime, formatDuration, plural} from '../../text/format.js';
import {firstLine} from '../../text/first-line.js';
import {sanitizeLine} from '../../text/sanitize.js';
import {usePrices} from '../contexts.js';
import {coordinatorName} from '../../view-model/jobs.js';
import {palette} from '../palette.js';

/**
 * A job's one-line summary at the top of its tree, when the log holds several:
 * `▾ job 3/40 · coordinator ✓ completed · 10 steps · 20k↑ 1.5k↓ $0.09 · 2.1s · 2026-11-21 21:01:39 · <id>`.
 * What tells the jobs apart comes first, so a narrow screen cuts the start time and the id. Folded and failed,
 * it says why after its figures (`… · 2.1s · Boom: the first line · <start> · <id>`): the ✗ finds the failing job
 * of forty, and a long reason is what a narrow screen cuts, not the figures.
 */
export function JobRow({
	model,
	job,
	number,
	count,
	collapsed,
	selected,
}: {
	model: Model;
	job: Job;
	/** Its place among the jobs shown, from 1, as the header's `job 3/40` says it. */
	number: number;
	count: number;
	collapsed: boolean;
	selected: boolean;
}) {
	const totals = jobTotals(model, job);
	const {coordinator} = totals;
	const ended = coordinator ? endedWhileWaiting(model, coordinator) : undefined;
	const look = runLook(model, coordinator);
	const cost = jobCost(model, job, usePrices());
	const expert = coordinatorName(model, job, coordinator);
	const failure = collapsed ? whyItFailed(coordinator, ended?.reason) : '';
	return (
		<Text inverse={selected}>
			<Text color={palette.muted}>{collapsed ? '▸ ' : '▾ '}</Text>
			<Text bold>
				job {number}/{count} · {sanitizeLine(expert)}
			</Text>
			<StatusText look={look} />
			<Text color={palette.muted}>
				{' · '}
				{plural(totals.steps, 'step')} · {formatCount(totals.usage.inputTokens)}↑ {formatCount(totals.usage.outputTokens)}↓ {formatCost(cost)} ·{' '}
				{formatDuration(jobDurationMs(totals))}
			</Text>
			<FailureText look={look} failure={failure} />
			<Text color={palette.muted}>
				{totals.startedAt === undefined ? '' : ` · ${formatDateTime(totals.startedAt)}`} · {sanitizeLine(job.jobId)}
			</Text>
		</Text>
	);
}

/** The first line of the coordinator's error, or why the job ended while it waited; '' when it did not fail. */
function whyItFailed(coordinator: ReturnType<typeof jobTotals>['coordinator'], endedReason: string | undefined): string {
	return endedReason === undefined ? runErrorLine(coordinator) : firstLine(endedReason);
}
