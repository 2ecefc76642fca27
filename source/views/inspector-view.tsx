import {Box, Text} from 'ink';
import {useMemo, useRef, useState} from 'react';
import {plural} from '../text/format.js';
import {displayWidth} from '../text/width/width.js';
import {useModelVersion, useUiDispatch, useUiStore, useViewEnv} from './contexts.js';
import {
	carryMatch,
	findMatches,
	findNeedsUnfolding,
	firstMatchFrom,
	highlightSegments,
	revealLine,
	stepFind,
	type FindMatch,
} from '../view-model/lines/inspector-find.js';
import {inspectorLines, type InspectorLine, type Unfolded} from '../view-model/lines/inspector-lines.js';
import {priorities, useCommands, useTextCapture} from './keypress.js';
import {browse, editLine, lineOf, type Line as EditedLine, type Recall} from '../view-model/line-editor.js';
import {Line} from './parts/line.js';
import {shownStart} from '../view-model/line-window.js';
import {scrollCommand} from './overlays.js';
import {PromptText} from './parts/prompt-line.js';
import {lineEditFor, type Command} from './keymap.js';
import {tones} from './scroll-panel.js';
import {maxScroll} from '../view-model/scroll.js';
import {matchStyle, palette} from './palette.js';
import {runnerFor} from './cockpit-acts.js';

/** The `/` of the inspector: the line being typed (while it is), the query kept, and the match `n` is on. */
type Find = {
	prompt: (EditedLine & {recall: Recall | undefined}) | undefined;
	query: string;
	/** Index into the matches; undefined until one is chosen (or after the folds changed the lines). */
	current: number | undefined;
	/** The top line in view when `/` was pressed: typing finds the first match from there down. */
	anchor: number;
};

const noFind: Find = {prompt: undefined, query: '', current: undefined, anchor: 0};

/**
 * State read by key handlers as it is now: several keys in one read (a paste, a fast typist) are handled
 * before React renders again, so each must see what the one before it did.
 */
function useCurrent<T>(initial: T): {get: () => T; set: (next: T) => void; value: T} {
	const ref = useRef(initial);
	const [value, setValue] = useState(initial);
	const handle = useMemo(
		() => ({
			get: () => ref.current,
			set(next: T) {
				ref.current = next;
				setValue(next);
			},
		}),
		[],
	);
	return {...handle, value};
}

/**
 * Everything about one activity, scrolled with the overlay keys: `/` finds text in it (`n`/`N` between the
 * matches), `enter` unfolds the first folded block in view and `e`/`E` unfold or fold them all, `o` writes
 * the raw event to a file.
 */
export function Inspector({activityId, scroll, height, width}: {activityId: string; scroll: number; height: number; width: number}) {
	const env = useViewEnv();
	const version = useModelVersion();
	const index = env.model.activityIndexById.get(activityId);
	const activity = index === undefined ? undefined : env.model.activities[index];
	const ref = activity?.ref;
	// Re-reading the raw event is I/O: do it once per activity, not once per frame.
	const raw = useMemo(() => (ref ? env.rawEvent(ref) : undefined), [ref, env]);
	// A tool result the model keeps only the start of is read again whole, once per activity as well (and once
	// more should what reads it arrive after the inspector opened).
	const [readerArrived, setReaderArrived] = useState(false);
	const shown = useMemo(() => (activity ? (env.wholeResult?.(activity, () => setReaderArrived(true)) ?? activity) : undefined), [activity, env, readerArrived]);
	// The commands shown are the ones the cockpit's keys run: the program and options that started the job.
	const runner = runnerFor(env, (activity && env.model.runs.get(activity.runId)?.jobId) ?? '');
	const unfolded = useCurrent<Unfolded>(new Set());
	const lines = useMemo(
		() => (shown ? inspectorLines(env.model, shown, raw, width, unfolded.value, runner) : [{text: 'This activity is no longer in the model.'}]),
		// The lines also show what the model says around the activity (its run, its children), which changes
		// without the activity changing: the version says when.
		[shown, raw, width, version, env.model, unfolded.value, runner],
	);
	const linesNow = useRef(lines);
	linesNow.current = lines;
	const find = useCurrent<Find>(noFind);
	const matches = useMemo(() => findMatches(lines, find.value.query), [lines, find.value.query]);
	const dispatch = useUiDispatch();
	const store = useUiStore();
	const bodyHeight = Math.max(1, height - 2);
	const max = maxScroll(lines.length, height);
	// Folding again shortens the lines: the view stays within them.
	const top = Math.min(scroll, max);

	// Find looks in the folded lines too: a query that matches only there unfolds every block (`e` folds them again).
	const linesToFind = (query: string): readonly InspectorLine[] => {
		const now = linesNow.current;
		if (query === '' || unfolded.get() === 'all' || !shown) return now;
		const whole = inspectorLines(env.model, shown, raw, width, 'all', runner);
		if (!findNeedsUnfolding(now, whole, query)) return now;
		unfolded.set('all');
		linesNow.current = whole;
		return whole;
	};

	const scrollNow = () => {
		const {overlay} = store.getState();
		return overlay.kind === 'inspector' ? Math.min(overlay.scroll, maxScroll(linesNow.current.length, height)) : 0;
	};

	const goTo = (found: readonly FindMatch[], current: number | undefined) => {
		const match = current === undefined ? undefined : found[current];
		if (!match) return;
		const lastScroll = maxScroll(linesNow.current.length, height);
		dispatch({type: 'scrollOverlayTo', to: revealLine(match.line, scrollNow(), bodyHeight, lastScroll), max: lastScroll});
	};

	const setFolds = (next: Unfolded) => {
		unfolded.set(next);
		// The lines move: the match that was current stays current where it moved to.
		const now = find.get();
		const before = linesNow.current;
		const was = now.current === undefined ? undefined : findMatches(before, now.query)[now.current];
		if (!was || !shown) {
			find.set({...now, current: undefined});
			return;
		}

		const after = inspectorLines(env.model, shown, raw, width, next, runner);
		const found = findMatches(after, now.query);
		const current = carryMatch(before, after, was, found);
		find.set({...now, current});
		// What was being looked at stays in sight, though the lines above it grew or shrank.
		const match = current === undefined ? undefined : found[current];
		const lastScroll = maxScroll(after.length, height);
		if (match) dispatch({type: 'scrollOverlayTo', to: revealLine(match.line, Math.min(scrollNow(), lastScroll), bodyHeight, lastScroll), max: lastScroll});
	};

	useTextCapture(
		(input, key) => {
			const now = find.get();
			const {prompt} = now;
			if (!prompt) return;
			if (key.escape || (key.ctrl && input === 'c')) {
				find.set({...noFind, anchor: now.anchor});
				return;
			}

			if (key.return) {
				dispatch({type: 'remember', kind: 'search', text: prompt.text});
				find.set({...now, prompt: undefined});
				return;
			}

			let next: {line: EditedLine; recall: Recall | undefined} | undefined;
			if (key.upArrow || key.downArrow) {
				next = browse(store.getState().history.search, prompt, prompt.recall, key.upArrow ? -1 : 1);
			} else {
				const edit = lineEditFor(input, key, prompt);
				if (edit) next = {line: editLine(prompt, edit), recall: undefined};
			}

			if (!next) return;
			const query = next.line.text;
			if (query === now.query) {
				find.set({...now, prompt: {...next.line, recall: next.recall}});
				return;
			}

			// Incremental, as the tree's search: the first match from where the view was when `/` was pressed.
			const found = findMatches(linesToFind(query), query);
			const current = firstMatchFrom(found, now.anchor);
			find.set({...now, prompt: {...next.line, recall: next.recall}, query, current});
			goTo(found, current);
		},
		() => find.get().prompt !== undefined,
	);

	const step = (direction: 1 | -1) => {
		const now = find.get();
		const found = findMatches(linesToFind(now.query), now.query);
		if (found.length === 0) return true;
		// After the folds changed, `n` goes on from the top of the view.
		const from = firstMatchFrom(found, scrollNow());
		const current = now.current === undefined ? (direction === 1 ? from : stepFind(found.length, from, -1)) : stepFind(found.length, now.current, direction);
		find.set({...now, current});
		goTo(found, current);
		return true;
	};

	// The keys the inspector gives a meaning of its own; the rest scroll it or close it (scrollCommand).
	const own: Partial<Record<Command, () => boolean>> = {
		'inspector.export'() {
			if (!activity) return false;
			try {
				dispatch({type: 'setMessage', message: `wrote ${env.exportEvent(activity)}`});
			} catch (error) {
				dispatch({type: 'setMessage', message: `could not write the event: ${error instanceof Error ? error.message : String(error)}`});
			}

			return true;
		},
		'search.open'() {
			// The last query comes back selected, as in the tree: typing replaces it, ←/→ edit it.
			find.set({...find.get(), prompt: {...lineOf(find.get().query, true), recall: undefined}, anchor: scrollNow()});
			return true;
		},
		'search.next': () => step(1),
		'search.previous': () => step(-1),
		'overlay.close'() {
			// The first esc clears the search, the next one closes.
			if (find.get().query === '') return false;
			find.set(noFind);
			return true;
		},
		'tree.expandAll'() {
			setFolds('all');
			return true;
		},
		'tree.collapseAll'() {
			setFolds(new Set());
			return true;
		},
		'item.activate'() {
			// Enter unfolds the first folded block in view; with none in view it closes, as it always did.
			const fold = firstFoldInView(linesNow.current, scrollNow(), bodyHeight);
			const open = unfolded.get();
			if (fold === undefined || open === 'all') return false;
			setFolds(new Set([...open, fold]));
			return true;
		},
	};
	useCommands(priorities.overlay + 1, command => own[command]?.() ?? false);
	useCommands(priorities.overlay, command => scrollCommand(command, max, height, dispatch));

	const {prompt, query, current} = find.value;
	const currentMatch = current === undefined ? undefined : matches[current];
	const visible = lines.slice(top, top + bodyHeight);
	const end = Math.min(lines.length, top + bodyHeight);
	const firstFold = firstFoldInView(lines, top, bodyHeight);
	const count = matches.length === 0 ? 'no match' : current === undefined ? plural(matches.length, 'match', 'matches') : `${current + 1}/${matches.length}`;
	return (
		<Box flexDirection="column" height={height} width={width}>
			<Line width={width} inverse>
				{' Inspector '}
			</Line>
			{/* Lines are cut to the width already: clipping sideways too would make Ink re-slice each one every frame. */}
			<Box flexDirection="column" height={bodyHeight} overflowY="hidden">
				{visible.map((line, offset) => {
					const at = top + offset;
					return (
						<InspectorRow
							key={at}
							line={line}
							width={width}
							matches={query === '' ? [] : matches.filter(match => match.line === at)}
							current={currentMatch}
							foldHint={line.fold !== undefined && line.fold === firstFold}
						/>
					);
				})}
			</Box>
			{prompt ? (
				<Line width={width}>
					<Text color={palette.accent}>/</Text>
					{/* The count and keys after a long query keep up to half the width (see PromptLine). */}
					<PromptText line={prompt} columns={width - 1 - (prompt.text === '' ? 0 : Math.min(displayWidth(findNote(count)), Math.floor(width / 2)))} />
					<Text color={palette.muted}>{prompt.text === '' ? '  type to find in this activity · enter keep · esc clear' : findNote(count)}</Text>
				</Line>
			) : (
				<Line width={width} color={palette.muted}>
					{lines.length === 0 ? '' : `${top + 1}–${end} of ${lines.length}`}
					{query === '' ? null : (
						<Text color={palette.warning}>
							{'  /'}
							{shownStart(query, Math.floor(width / 2))} {count}
						</Text>
					)}
				</Line>
			)}
		</Box>
	);
}

/** The fold marker nearest the top of the view, which enter unfolds. */
function firstFoldInView(lines: readonly InspectorLine[], top: number, height: number): number | undefined {
	for (let index = top; index < Math.min(lines.length, top + height); index++) {
		const {fold} = lines[index]!;
		if (fold !== undefined) return fold;
	}

	return undefined;
}

function InspectorRow({
	line,
	width,
	matches,
	current,
	foldHint,
}: {
	line: InspectorLine;
	width: number;
	matches: readonly FindMatch[];
	current: FindMatch | undefined;
	foldHint: boolean;
}) {
	const style = line.tone === undefined ? {} : tones[line.tone];
	if (matches.length === 0) {
		return (
			<Line width={width} {...style}>
				{line.text === '' ? ' ' : line.text}
				{foldHint ? <Text color={palette.muted}>{'  ⏎ show them · e unfold all'}</Text> : null}
			</Line>
		);
	}

	return (
		<Line width={width} {...style}>
			{highlightSegments(line.text, matches, current).map((segment, index) =>
				segment.match === 'none' ? (
					<Text key={index}>{segment.text}</Text>
				) : (
					<Text key={index} {...matchStyle[segment.match]}>
						{segment.text}
					</Text>
				),
			)}
		</Line>
	);
}

function findNote(count: string): string {
	return `  ${count} · enter keep · esc clear`;
}
