import {Box, Text} from 'ink';
import React, {useMemo} from 'react';
import {barCells, jobTimeline, type TimelineRow} from '../query/timeline.js';
import {formatCount, formatDuration} from '../present/format.js';
import {sanitizeLine} from '../present/sanitize.js';
import {padEnd} from '../present/width.js';
import {useModelVersion, useUiDispatch, useViewEnv} from './contexts.js';
import {currentJob} from './header.js';
import {priorities, useCommands} from './keypress.js';
import {scrollCommand} from './overlays.js';
import {maxScroll} from './scroll-panel.js';
import {statusLook} from '../present/status.js';
import {Line} from './line.js';

/**
 * The job as a waterfall: a row per step with a bar for when it ran, its duration and tokens, and the
 * child runs nested under the step that delegated them. The slowest steps are red, long gaps marked ⋯.
 */
export function TimelineView({scroll, height, width}: {scroll: number; height: number; width: number}) {
	const {model} = useViewEnv();
	const version = useModelVersion();
	const dispatch = useUiDispatch();
	const job = currentJob(model);
	const timeline = useMemo(() => (job ? jobTimeline(model, job) : undefined), [model, job, version]);
	const rows = timeline?.rows ?? [];
	const bodyHeight = Math.max(1, height - 2);
	const max = maxScroll(rows.length, height);
	useCommands(priorities.overlay, command => scrollCommand(command, max, height, dispatch, ['overlay.close', 'timeline.toggle']));

	const labelWidth = Math.min(34, Math.max(16, Math.floor(width * 0.3)));
	const barWidth = Math.max(10, width - labelWidth - 24);
	const visible = rows.slice(scroll, scroll + bodyHeight);
	return (
		<Box flexDirection="column" height={height} width={width}>
			<Line width={width} inverse>
				{` Timeline · ${job ? sanitizeLine(job.jobId) : 'no job'} · ${formatDuration(timeline?.spanStart === undefined || timeline.spanEnd === undefined ? undefined : timeline.spanEnd - timeline.spanStart)} `}
			</Line>
			{/* Lines are cut to the width already: clipping sideways too would make Ink re-slice each one every frame. */}
			<Box flexDirection="column" height={bodyHeight} overflowY="hidden">
				{visible.map(row => (
					<TimelineLine key={row.key} row={row} spanStart={timeline?.spanStart} spanEnd={timeline?.spanEnd} labelWidth={labelWidth} barWidth={barWidth} width={width} />
				))}
			</Box>
			<Line width={width} color="gray">
				{rows.length === 0 ? 'no steps yet' : `${scroll + 1}–${Math.min(rows.length, scroll + bodyHeight)} of ${rows.length}`} · red: slowest steps · ⋯ long gap before · t or esc back
			</Line>
		</Box>
	);
}

function TimelineLine({row, spanStart, spanEnd, labelWidth, barWidth, width}: {row: TimelineRow; spanStart: number | undefined; spanEnd: number | undefined; labelWidth: number; barWidth: number; width: number}) {
	const indent = '  '.repeat(row.depth);
	const cells = row.start === undefined || row.end === undefined || spanStart === undefined || spanEnd === undefined ? undefined : barCells(row.start, row.end, spanStart, spanEnd, barWidth);
	const bar = cells ? `${' '.repeat(cells.offset)}${(row.kind === 'pane' ? '─' : '█').repeat(cells.length)}`.padEnd(barWidth) : ' '.repeat(barWidth);
	if (row.kind === 'pane') {
		const look = statusLook[row.status];
		return (
			<Line width={width}>
				<Text bold>{padEnd(`${indent}${sanitizeLine(row.expertKey)}`, labelWidth)}</Text> <Text color="gray">{bar}</Text>{' '}
				<Text color={look.color}>{look.glyph}</Text> {formatDuration(row.start === undefined || row.end === undefined ? undefined : row.end - row.start)}
			</Line>
		);
	}

	const tokens = row.usage ? `${formatCount(row.usage.inputTokens)}↑ ${formatCount(row.usage.outputTokens)}↓` : '';
	return (
		<Line width={width}>
			<Text color={row.longGap ? 'yellow' : 'gray'}>{padEnd(`${indent}${row.longGap ? '⋯' : ' '} step ${row.step}`, labelWidth)}</Text>{' '}
			<Text color={row.slow ? 'red' : row.open ? 'yellow' : 'cyan'}>{bar}</Text> {padEnd(formatDuration(row.durationMs), 7)} <Text color="gray">{tokens}</Text>
		</Line>
	);
}
