import {Text} from 'ink';
import React from 'react';
import type {Activity} from '../../model/state.js';
import {highlightRanges} from '../../query/search.js';
import {describeActivity} from '../../text/describe-activity.js';
import {displayWidth, truncateEnd, truncatePath} from '../../text/width/width.js';
import {matchStyle, palette} from '../palette.js';

/** The verbs that stand out: the person's query, the end, an error, a retry, delegations, a question. */
const colors: Partial<Record<Activity['type'], string>> = {
	query: palette.accent,
	complete: palette.success,
	error: palette.error,
	retry: palette.warning,
	delegate: palette.delegation,
	delegationComplete: palette.delegation,
	interactiveTool: palette.waiting,
};

/** Text with the search matches in it marked; the text is already sanitised. */
export function Highlighted({text, query, color}: {text: string; query: string | undefined; color?: string | undefined}) {
	const ranges = query ? highlightRanges(text, query) : [];
	if (ranges.length === 0) return <Text color={color}>{text}</Text>;
	const parts: React.ReactNode[] = [];
	let at = 0;
	for (const [start, end] of ranges) {
		if (start > at) parts.push(text.slice(at, start));
		parts.push(
			<Text key={start} {...matchStyle.current}>
				{text.slice(start, end)}
			</Text>,
		);
		at = end;
	}

	if (at < text.length) parts.push(text.slice(at));
	return <Text color={color}>{parts}</Text>;
}

/*
 * Rows are inline text: the tree puts each in one line of text that it cuts to the width, so a row costs
 * Ink one node to lay out and measure rather than a box and a text for each part.
 */

/**
 * One activity: icon, verb, what it acted on, and a tool error in red; a delegate whose child returned adds
 * the child's ✓/✗ and the first line of its answer or error; search matches marked. Given the
 * columns the row has (`width`), a path too long for them is cut in its middle so the file name stays.
 */
export function ActivityRow({
	activity,
	depth,
	selected,
	highlight,
	width,
}: {
	activity: Activity;
	depth: number;
	selected: boolean;
	highlight?: string | undefined;
	width?: number | undefined;
}) {
	const described = describeActivity(activity);
	const indent = depth * 2 + 2;
	const before = width === undefined ? 0 : width - indent - displayWidth(`${described.icon} ${described.verb} `);
	// A delegate's outcome says the error itself, with the glyph its child's pane shows.
	const showError = described.error !== undefined && activity.type !== 'error' && described.outcome === undefined;
	const line = width === undefined ? described : {...described, detail: fitDetail(described, before, showError)};
	return (
		<Text inverse={selected}>
			{' '.repeat(indent)}
			{line.icon} <Highlighted text={line.verb} query={highlight} color={colors[activity.type]} />
			{line.detail === '' ? '' : ' '}
			<Highlighted text={line.detail} query={highlight} color={activity.type === 'error' ? palette.error : undefined} />
			{showError ? (
				<Text color={palette.error}>
					{' ✗ '}
					<Highlighted text={line.error ?? ''} query={highlight} />
				</Text>
			) : null}
			{line.outcome ? (
				<Text color={line.outcome.failed ? palette.error : palette.success}>
					{` ${line.outcome.glyph}`}
					{line.outcome.text === '' ? '' : ' '}
					<Highlighted text={line.outcome.text} query={highlight} color={line.outcome.failed ? palette.error : undefined} />
				</Text>
			) : null}
			{line.pending ? <Text color={palette.muted}> …</Text> : null}
		</Text>
	);
}

/**
 * What the row acted on, in the columns left for it: a path cut in its middle; a returned delegate's query cut
 * so that at least half of those columns are left for the child's answer (the query is in the child's pane).
 * A row that ends in a mark (a tool's error `✗`, a delegate's `✓`/`✗`) leaves room for the mark and the start
 * of its text: the tree cuts a row at the screen's edge, and a failure cut off there would read as a success.
 */
function fitDetail(line: ReturnType<typeof describeActivity>, columns: number, showError: boolean): string {
	const tail = line.outcome ? ` ${line.outcome.glyph} ${line.outcome.text}` : showError ? ` ✗ ${line.error ?? ''}` : undefined;
	const room = tail === undefined ? columns : Math.max(Math.ceil(columns / 2), columns - displayWidth(tail));
	if (line.path) return truncatePath(line.detail, room);
	if (tail === undefined) return line.detail;
	return displayWidth(line.detail) <= room ? line.detail : truncateEnd(line.detail, Math.max(1, room));
}

/**
 * A line of live streaming text under a running pane: reasoning dim, the result as it is written. It stands where
 * the pane's activities do: a pane's live text follows its children's rows, and indented further it read as the last
 * child's (a Claude Code run answering while its sub-agents' rows are open).
 */
export function LiveRow({text, depth, channel}: {text: string; depth: number; channel: 'reasoning' | 'result'}) {
	return (
		<Text dimColor={channel === 'reasoning'} italic={channel === 'reasoning'}>
			{' '.repeat(depth * 2 + 2)}
			{channel === 'reasoning' ? '┆ ' : '│ '}
			{text}
		</Text>
	);
}
