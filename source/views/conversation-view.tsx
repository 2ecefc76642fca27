import {useEffect, useMemo, useRef, useState} from 'react';
import {messageLineOf} from '../model/message-lines.js';
import {conversationLineItems, gutter, type ConversationLine, type ConversationSource} from '../text/conversation.js';
import {sanitizeLine} from '../text/sanitize.js';
import {cutOffText, type CutOff} from '../query/tree.js';
import {wrapIndented} from '../text/wrap.js';
import {useModelVersion, useUiDispatch, useUiState, useViewEnv} from './contexts.js';
import type {InspectorLine} from '../view-model/lines/inspector-lines.js';
import {priorities, useCommands} from './keypress.js';
import {scrollCommand} from './overlays.js';
import {ScrollPanel} from './scroll-panel.js';
import {maxScroll} from '../view-model/scroll.js';
import {useSlicedItems} from './hooks/use-sliced-items.js';

/**
 * `c`: the conversation of a step, the same text `perscope --conversation` prints, wrapped to the screen.
 * The messages are read from the log when the view opens (and again if the step's line changes, as when a
 * running step ends), never kept in the model.
 */
export function ConversationView({runId, step, scroll, height, width}: {runId: string; step: number; scroll: number; height: number; width: number}) {
	const env = useViewEnv();
	// A running step's line is replaced by its end's when the step ends: the version says when to look again.
	useModelVersion();
	const run = env.model.runs.get(runId);
	const where = run ? messageLineOf(run, step) : undefined;
	const {source, line, offset} = where ?? {source: undefined, line: 0, offset: 0};
	const dialect = run?.dialect ?? 'perstack';
	const read = env.messageLine;
	const {rawEvent} = env;
	// Reading the line is I/O: once per line, not once per frame. An agent CLI's session is read off this thread: it
	// shows once it arrives.
	const requested = useMemo(
		() => (source === undefined ? undefined : read ? read({source, step, line, offset, dialect, runId}) : rawEvent({source, line, offset})),
		// Not on the model: a load that replaces it leaves the step's line where it was.
		[source, step, line, offset, dialect, runId, read, rawEvent],
	);
	const [arrived, setArrived] = useState<{of: unknown; conversation: ConversationSource | undefined}>();
	useEffect(() => {
		if (!(requested instanceof Promise)) return undefined;
		let shown = true;
		void requested.then(
			conversation => shown && setArrived({of: requested, conversation}),
			() => shown && setArrived({of: requested, conversation: undefined}),
		);
		return () => {
			shown = false;
		};
	}, [requested]);
	const raw = requested instanceof Promise ? (arrived?.of === requested ? arrived.conversation : reading) : requested;
	const expertKey = run?.expertKey ?? '?';
	// `e`: long contents in full instead of their head and tail.
	const [unfolded, setUnfolded] = useState(false);
	const cut = run ? cutOffText(env.model, run) : undefined;
	const cutOff = cut?.step === step ? cut : undefined;
	// A long session is ~150,000 wrapped lines, ~0.6 s to make: made in slices, the panel drawn as they come.
	const {items: lines, done} = useSlicedItems(
		env.work.scheduler,
		() => panelLines(raw, {runId, expertKey, step, line, where: source !== undefined, cutOff}, width, unfolded),
		[raw, runId, expertKey, step, line, source, width, unfolded, cutOff?.answer, cutOff?.reasoning],
	);
	const dispatch = useUiDispatch();
	useCommands(priorities.overlay + 1, command => {
		if (command !== 'tree.expandAll') return false;
		setUnfolded(value => !value);
		return true;
	});
	// G while the lines are still being laid out goes to the end of what there is, and to the real end once it is whole.
	const toEnd = useRef(false);
	useCommands(priorities.overlay, command => {
		if (command === 'nav.bottom') toEnd.current = !done;
		else if (command.startsWith('nav.')) toEnd.current = false;
		return scrollCommand(command, maxScroll(lines.length, height), height, dispatch);
	});
	useEffect(() => {
		if (!done || !toEnd.current) return;
		toEnd.current = false;
		scrollCommand('nav.bottom', maxScroll(lines.length, height), height, dispatch);
	}, [done]);
	const back = useUiState().overlay;
	const hint = `+ new at this step · e ${unfolded ? 'fold long contents' : 'unfold long contents'} · ↑↓ PgUp PgDn scroll · esc ${back.kind === 'conversation' && back.back ? 'back to the timeline' : 'close'}`;
	return (
		<ScrollPanel
			title={sanitizeLine(`Conversation · ${expertKey} · step ${step}${unfolded ? ' · unfolded' : ''}${done ? '' : ' · laying out…'}`)}
			lines={lines}
			scroll={scroll}
			height={height}
			width={width}
			hint={hint}
		/>
	);
}

type Target = {runId: string; expertKey: string; step: number; line: number; where: boolean; cutOff: CutOff | undefined};

/** What the view shows while the step's session is read. */
const reading = Symbol('reading');

function* panelLines(raw: ConversationSource | undefined | typeof reading, target: Target, width: number, unfolded: boolean): Generator<InspectorLine> {
	if (!target.where) {
		yield {text: `Step ${target.step} of this run has no messages in the log.`, tone: 'dim'};
		return;
	}

	if (raw === reading) {
		yield {text: `Reading the session for step ${target.step} (line ${target.line})…`, tone: 'dim'};
		return;
	}

	if (raw === undefined) {
		yield {text: `The messages of step ${target.step} (line ${target.line}) are no longer available:`, tone: 'error'};
		yield {text: 'a pipe or a command keeps only its most recent lines, and a file may have changed since.', tone: 'dim'};
		return;
	}

	const textWidth = Math.max(10, width - 3);
	for (const line of conversationLineItems(
		raw,
		{runId: target.runId, expertKey: target.expertKey, step: target.step, where: `line ${target.line}`, cutOff: target.cutOff},
		{unfolded},
	)) {
		for (const piece of wrapIndented(line.text, textWidth)) yield panelLine(line, piece);
	}
}

function panelLine(line: ConversationLine, piece: string): InspectorLine {
	const text = `${gutter(line)}${piece}`;
	return line.tone === undefined ? {text} : {text, tone: line.tone};
}
