import {Text} from 'ink';
import {runErrorLine, runLook} from '../../query/run-look.js';
import {StatusText} from './status-text.js';
import {FailureText} from './failure-text.js';
import {paneDepth} from '../../model/depth.js';
import type {Model, Pane} from '../../model/state.js';
import {formatCount, formatDuration, plural} from '../../text/format.js';
import {sanitizeLine} from '../../text/sanitize.js';
import {lastRun, maxShownDepth} from '../../view-model/tree/rows.js';
import {runsCost} from '../../query/cost.js';
import {formatCost} from '../../text/cost.js';
import {usePrices} from '../contexts.js';
import {paneStats} from '../../view-model/pane-stats.js';
import {palette} from '../palette.js';

/**
 * A run pane's one-line header, as inline text: fold marker, expert, status (folded and failed, with the
 * first line of its error), steps, tokens, duration.
 */
export function PaneRow({
	model,
	pane,
	depth,
	collapsed,
	orphan,
	cycle,
	selected,
}: {
	model: Model;
	pane: Pane;
	depth: number;
	collapsed: boolean;
	orphan: boolean;
	/** Shown as a root because its parent link would close a delegation cycle. */
	cycle: boolean;
	selected: boolean;
}) {
	const run = lastRun(model, pane);
	const look = runLook(model, run);
	const stats = paneStats(model, pane);
	const cost = runsCost(
		model,
		pane.runIds.flatMap(runId => model.runs.get(runId) ?? []),
		usePrices(),
	);
	const resumes = pane.runIds.length > 1 ? ` ↻${pane.runIds.length - 1}` : '';
	const from = model.runs.get(pane.paneId)?.resumedFrom;
	// Only the run id comes from the log; sanitising the whole phrase would trim its leading space.
	// Folded, the pane's error is not on screen anywhere else: its first line goes after the figures.
	const failure = collapsed ? runErrorLine(run) : '';
	const branched = from ? ` · from ${sanitizeLine(from.runId.slice(0, 8))}${from.stepNumber === null ? '' : ` step ${from.stepNumber}`}` : '';
	return (
		<Text inverse={selected}>
			{' '.repeat(depth * 2)}
			<Text color={palette.muted}>{collapsed ? '▸ ' : '▾ '}</Text>
			<Text bold>{sanitizeLine(run?.expertKey ?? pane.paneId)}</Text>
			{/* Next to the name, where a narrow terminal still shows them. */}
			{cycle ? <Text color={palette.warning}> ⟲ delegation cycle</Text> : ''}
			{depth >= maxShownDepth ? <Text color={palette.muted}> (depth {paneDepth(model, pane)})</Text> : ''}
			<StatusText look={look} />
			<Text color={palette.muted}>
				{' · '}
				{plural(stats.steps, 'step')} · {formatCount(stats.inputTokens)}↑ {formatCount(stats.outputTokens)}↓ {formatCost(cost)} ·{' '}
				{formatDuration(stats.durationMs)}
				{resumes}
			</Text>
			<FailureText look={look} failure={failure} />
			<Text color={palette.muted}>
				{branched}
				{orphan ? ' · parent not in log' : ''}
			</Text>
		</Text>
	);
}
