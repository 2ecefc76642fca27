import {Box, Text} from 'ink';
import {useMemo, useReducer, useRef} from 'react';
import type {Model} from '../model/state.js';
import {isEmptyFilter, matches} from '../query/filter.js';
import {barCells, isMarkedWait, jobTimeline, stepLanding, type BarPlace, type Timeline, type TimelineRow} from '../query/timeline.js';
import {formatCount, formatDuration} from '../text/format.js';
import {sanitizeLine} from '../text/sanitize.js';
import {padEnd} from '../text/width/width.js';
import {useModelVersion, useUiDispatch, useUiState, useUiStore, useViewEnv, type ViewEnv} from './contexts.js';
import {revealActivity} from '../view-model/search/reveal.js';
import {findConversation, paneConversation} from '../query/conversation-target.js';
import {priorities, useCommands} from './keypress.js';
import type {Command} from './keymap.js';
import {scrollCommand} from './overlays.js';
import {paneKey} from '../view-model/tree/rows.js';
import {maxScroll} from '../view-model/scroll.js';
import {currentJob, shownJobs} from '../view-model/jobs.js';
import {stepText} from '../view-model/lines/timeline-text.js';
import {useSelectionJob} from './hooks/use-selection-job.js';
import {endedWithoutFinalEventLook, statusLook} from '../text/status.js';
import type {UiAction, UiState} from '../view-model/ui-state.js';
import {Line} from './parts/line.js';
import {questionAt, resumeStep} from '../view-model/cockpit.js';
import {askAnswer, confirmContinuation, copyCommand, runnerFor, say} from './cockpit-acts.js';
import {answerContinuation} from '../query/continuation.js';
import {answerPlaceholder} from '../query/resume-command.js';
import {assertNever} from '../model/assert-never.js';
import {palette, toneColor} from './palette.js';

/**
 * The job the selection is in as a waterfall: a row per step with what ran in it, a bar for when it ran, its
 * duration and tokens, and the child runs nested under the step that delegated them. The slowest steps are
 * red, long gaps and waits marked ⋯. A cursor picks a row; enter goes to it in the tree.
 */
export function TimelineView({scroll, height, width}: {scroll: number; height: number; width: number}) {
	const env = useViewEnv();
	const {model} = env;
	const version = useModelVersion();
	const dispatch = useUiDispatch();
	const uiStore = useUiStore();
	const {filter} = useUiState();
	const jobs = shownJobs(model);
	const job = useSelectionJob(width) ?? currentJob(model);
	const timeline = useMemo(() => (job ? jobTimeline(model, job) : undefined), [model, job, version]);
	const rows = timeline?.rows ?? [];
	const bodyHeight = Math.max(1, height - 2);
	const max = maxScroll(rows.length, height);
	// The cursor lives here, not in the UI state: it means nothing once the timeline closes. It holds its row's
	// key, so a live run's new rows above it do not move it to another step.
	// Come back to from a conversation opened here, it is where it was.
	const {overlay} = useUiState();
	const cursorRef = useRef<{key: string | undefined; index: number}>({key: overlay.kind === 'timeline' ? overlay.cursor : undefined, index: 0});
	const [, redraw] = useReducer((count: number) => count + 1, 0);
	const cursor = cursorIndex(rows, cursorRef.current);

	const moveTo = (target: number) => {
		const next = Math.max(0, Math.min(rows.length - 1, target));
		cursorRef.current = {key: rows[next]?.key, index: next};
		// Keys of one read arrive before the next frame: the scroll is read from the store, not the props.
		const shown = uiScroll(uiStore.getState(), scroll);
		const to = next < shown ? next : next >= shown + bodyHeight ? next - bodyHeight + 1 : shown;
		if (to !== shown) dispatch({type: 'scrollOverlayTo', to, max});
		redraw();
	};

	useCommands(priorities.overlay, command => {
		const at = cursorIndex(rows, cursorRef.current);
		const target = cursorMoves[command]?.(at, Math.max(1, bodyHeight - 1), rows.length - 1);
		if (target !== undefined) {
			moveTo(target);
			return true;
		}

		if (command === 'item.activate') {
			const row = rows[at];
			if (row) goToRow(model, row, filter, dispatch);
			return true;
		}

		if (command === 'conversation.open') {
			const row = rows[at];
			if (row) openConversationOf(model, row, {kind: 'timeline', scroll: uiScroll(uiStore.getState(), scroll), cursor: row.key}, dispatch);
			return true;
		}

		if (command === 'cockpit.resume' || command === 'confirm.yes' || command === 'cockpit.answer') {
			const row = rows[at];
			if (row) cockpitOnRow(env, model, row, command, dispatch);
			return true;
		}

		return scrollCommand(command, max, height, dispatch, ['overlay.close', 'timeline.toggle']);
	});

	const labelWidth = Math.min(60, Math.max(16, Math.floor(width * 0.45)));
	const barWidth = Math.max(10, width - labelWidth - 24);
	const visible = rows.slice(scroll, scroll + bodyHeight);
	const which = job && jobs.length > 1 ? `job ${jobs.indexOf(job) + 1}/${jobs.length} ` : '';
	return (
		<Box flexDirection="column" height={height} width={width}>
			<Line width={width} inverse>
				{` Timeline · ${which}${job ? sanitizeLine(job.jobId) : 'no job'} · ${spanText(timeline)} `}
			</Line>
			{/* Lines are cut to the width already: clipping sideways too would make Ink re-slice each one every frame. */}
			<Box flexDirection="column" height={bodyHeight} overflowY="hidden">
				{visible.map((row, n) => (
					<TimelineLine
						key={row.key}
						row={row}
						selected={scroll + n === cursor}
						span={timeline?.barSpan}
						labelWidth={labelWidth}
						barWidth={barWidth}
						width={width}
					/>
				))}
			</Box>
			<Line width={width} color={palette.muted}>
				{rows.length === 0 ? 'no steps yet' : `${scroll + 1}–${Math.min(rows.length, scroll + bodyHeight)} of ${rows.length}`} · red: slowest · ⋯ long gap or
				wait · ⏎ go there · c conversation · t/esc back
			</Line>
		</Box>
	);
}

/** What the title says of the job's span: how long it took, or that its bars are by order. */
function spanText(timeline: Timeline | undefined): string {
	if (timeline?.axis === 'order') return timeline.barSpan === undefined ? 'untimed' : 'untimed: bars in event order';
	return formatDuration(timeline?.spanStart === undefined || timeline.spanEnd === undefined ? undefined : timeline.spanEnd - timeline.spanStart);
}

/** The timeline's scroll as the store has it now (keys of one read arrive before the next frame), else `fallback`. */
function uiScroll(state: UiState, fallback: number): number {
	return state.overlay.kind === 'timeline' ? state.overlay.scroll : fallback;
}

/**
 * `c` on a step row: that step's conversation; on a run's row, the run's last step with messages. Closing it
 * comes `back` to the timeline.
 */
function openConversationOf(
	model: Model,
	row: TimelineRow,
	back: {kind: 'timeline'; scroll: number; cursor: string},
	dispatch: (action: UiAction) => void,
): void {
	const found = row.kind === 'step' ? findConversation(model, row.runId, row.step) : paneConversation(model, row.paneId);
	if (found.ok) dispatch({type: 'openConversation', runId: found.target.run.runId, step: found.target.line.step, back});
	else dispatch({type: 'setMessage', message: sanitizeLine(found.brief)});
}

/**
 * The cockpit's keys on a row: `R` resumes from the step's checkpoint, `a` answers what the row's run (or its job)
 * waits on, `y` copies the answer command, else the resume command.
 */
function cockpitOnRow(
	env: ViewEnv,
	model: Model,
	row: TimelineRow,
	command: 'cockpit.resume' | 'confirm.yes' | 'cockpit.answer',
	dispatch: (action: UiAction) => void,
): void {
	const run = model.runs.get(row.kind === 'step' ? row.runId : (model.panes.get(row.paneId)?.runIds.at(-1) ?? ''));
	if (!run) return;
	const runner = runnerFor(env, run.jobId);
	const resume =
		row.kind === 'step' ? resumeStep(model, run, row.step, runner) : ({ok: false, message: 'R resumes from a step: move to one of its rows'} as const);
	const question = questionAt(model, {runId: run.runId});
	switch (command) {
		case 'cockpit.resume':
			if (resume.ok) confirmContinuation(env, dispatch, resume.value);
			else say(dispatch, resume.message);
			return;
		case 'cockpit.answer': {
			if (!question.ok) {
				say(dispatch, question.message);
				return;
			}

			askAnswer(env, dispatch, question.value);
			return;
		}

		case 'confirm.yes':
			copyCommand(env, dispatch, question.ok ? {ok: true, value: answerContinuation(question.value, answerPlaceholder, runner)} : resume);
			return;
		default:
			assertNever(command);
	}
}

/** Where the cursor's row is now: found by its key, else where it was. */
function cursorIndex(rows: readonly TimelineRow[], cursor: {key: string | undefined; index: number}): number {
	const at = cursor.key === undefined ? -1 : rows.findIndex(row => row.key === cursor.key);
	return at >= 0 ? at : Math.min(cursor.index, Math.max(0, rows.length - 1));
}

/** Where the moving keys take the cursor from `at`, with `page` rows a page and `last` the last row. */
const cursorMoves: Partial<Record<Command, (at: number, page: number, last: number) => number>> = {
	'nav.up': at => at - 1,
	'nav.down': at => at + 1,
	'nav.pageUp': (at, page) => at - page,
	'nav.pageDown': (at, page) => at + page,
	'nav.top': () => 0,
	'nav.bottom': (_at, _page, last) => last,
};

/**
 * Closes the timeline and selects the row's place in the tree: a step's own first activity (`stepLanding`), or the
 * pane (a step with no activity of its own, a pane row), unfolding the panes on the way; the tree shows the rows
 * above it too, for what led to it.
 */
function goToRow(model: Model, row: TimelineRow, filter: UiState['filter'], dispatch: (action: UiAction) => void): void {
	const pane = model.panes.get(row.paneId);
	const index = row.kind === 'step' ? stepLanding(model, row) : undefined;
	dispatch({type: 'closeOverlay'});
	if (index !== undefined) {
		revealActivity(model, index, dispatch, true);
		const activity = model.activities[index];
		if (activity && !isEmptyFilter(filter) && !matches(filter, activity, model))
			dispatch({type: 'setMessage', message: `step ${activity.step ?? ''} is hidden by the filter (c clears it)`});
		return;
	}

	// The pane's first activity unfolds everything above it; the pane itself is then what is selected.
	const first = pane?.activityIndices[0];
	if (first !== undefined) revealActivity(model, first, dispatch);
	dispatch({type: 'select', key: paneKey(row.paneId), index: 0, follow: false, context: true});
}

function TimelineLine({
	row,
	selected,
	span,
	labelWidth,
	barWidth,
	width,
}: {
	row: TimelineRow;
	selected: boolean;
	span: BarPlace | undefined;
	labelWidth: number;
	barWidth: number;
	width: number;
}) {
	// The cursor is marked as the tree marks its selection, so it shows without colours too.
	const indent = `${selected ? '›' : ' '}${'  '.repeat(row.depth)}`;
	const cells = row.bar === undefined || span === undefined ? undefined : barCells(row.bar.from, row.bar.to, span.from, span.to, barWidth);
	const bar = cells ? `${' '.repeat(cells.offset)}${(row.kind === 'pane' ? '─' : '█').repeat(cells.length)}`.padEnd(barWidth) : ' '.repeat(barWidth);
	if (row.kind === 'pane') {
		const look = row.endedWithoutFinalEvent ? endedWithoutFinalEventLook : statusLook[row.status];
		return (
			<Line width={width}>
				<Text bold inverse={selected}>
					{padEnd(`${indent}${sanitizeLine(row.expertKey)}`, labelWidth)}
				</Text>{' '}
				<Text color={palette.muted}>{bar}</Text> <Text color={toneColor(look.tone)}>{look.glyph}</Text>{' '}
				{formatDuration(row.start === undefined || row.end === undefined ? undefined : row.end - row.start)}
			</Line>
		);
	}

	const tokens = row.usage ? `${formatCount(row.usage.inputTokens)}↑ ${formatCount(row.usage.outputTokens)}↓` : '';
	const marked = isMarkedWait(row);
	const text = stepText(row);
	return (
		<Line width={width}>
			<Text color={row.longWait ? palette.error : marked ? palette.warning : palette.muted} inverse={selected}>
				{padEnd(`${indent}${marked ? '⋯' : ' '} step ${row.step}${text === '' ? '' : ` ${text}`}`, labelWidth)}
			</Text>{' '}
			<Text color={row.slow ? palette.error : row.open ? palette.running : palette.accent}>{bar}</Text> {padEnd(formatDuration(row.durationMs), 7)}{' '}
			<Text color={palette.muted}>{tokens}</Text>
		</Line>
	);
}
