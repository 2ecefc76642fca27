import {Box, Text, useApp, useStdout} from 'ink';
import {useEffect, useRef, useState} from 'react';
import type {JobListing} from '../load/job-listing.js';
import {formatCount, formatDateTime, plural} from '../text/format.js';
import {firstLine} from '../text/first-line.js';
import {sanitizeLine} from '../text/sanitize.js';
import {padEnd, truncateEnd} from '../text/width/width.js';
import {statusLook} from '../text/status.js';
import type {Command} from './keymap.js';
import {KeypressProvider, priorities, useCommands, useHandOff, useTextCapture, type TypedAhead} from './keypress.js';
import {lineEditFor} from './keymap.js';
import {editLine, lineOf, type Line as TypedLine} from '../view-model/line-editor.js';
import {jobsMatching} from '../view-model/job-filter.js';
import {PromptText} from './parts/prompt-line.js';
import {displayWidth} from '../text/width/width.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import {Line} from './parts/line.js';
import {palette, toneColor} from './palette.js';

/**
 * `perscope perstack`: the saved jobs, newest first; enter opens one. Resolves through `onChoose`
 * (undefined when the person quits instead).
 */
type ChooserProps = {
	root: string;
	jobs: JobListing[];
	onChoose: (job: JobListing | undefined) => void;
	/** The job to select first: the one the person came back from. */
	initialJobPath?: string | undefined;
	/** Ctrl-Z; `repaint` draws the list again on `fg`. */
	onSuspend?: ((repaint: () => void) => void) | undefined;
	/**
	 * Where the rest of the list comes from, when `jobs` is not all of it: `next` reads for up to a budget and gives
	 * the list when it changed; `pending` says how many jobs are left to read; `everyMs`, when following, how often
	 * the root is looked at again once all is read.
	 */
	source?: {next: (budgetMs: number) => JobListing[] | undefined; readonly pending: number; everyMs: number | undefined} | undefined;
	/** Where keys typed after the job was opened go, for the job's viewer. */
	typedAhead?: TypedAhead | undefined;
};

/** How long a slice of reading the list may take: keys are answered between slices. */
const sliceMs = 16;

export function JobChooser(props: ChooserProps) {
	// Keys go through the same provider as the viewer's, which splits a burst (`jj` + enter in one read,
	// from type-ahead, key repeat or a slow ssh link) into its presses.
	return (
		<KeypressProvider typedAhead={props.typedAhead}>
			<ChooserList {...props} />
		</KeypressProvider>
	);
}

function ChooserList({root, jobs: firstJobs, onChoose, initialJobPath, onSuspend, source}: ChooserProps) {
	const {exit} = useApp();
	const handOff = useHandOff();
	const {write} = useStdout();
	const {columns, rows} = useTerminalSize();
	// The jobs shown: every job, or those `/` finds.
	const [jobs, setJobs] = useState(firstJobs);
	const [selected, setSelectedState] = useState(() =>
		Math.max(
			0,
			firstJobs.findIndex(job => job.path === initialJobPath),
		),
	);
	// The presses of one burst are handled before React renders again: each must see where the last one moved.
	const current = useRef(selected);
	const shown = useRef(jobs);
	const all = useRef(firstJobs);
	const moved = useRef(false);
	// `/`: the line typed, while open; the jobs shown are those it finds, the top one selected.
	const [typed, setTypedState] = useState<TypedLine | undefined>(undefined);
	const typedNow = useRef<TypedLine | undefined>(undefined);
	const setTyped = (line: TypedLine | undefined) => {
		typedNow.current = line;
		setTypedState(line);
	};
	const showMatching = (text: string) => {
		shown.current = jobsMatching(all.current, text);
		setJobs(shown.current);
		setSelected(0);
	};
	const setSelected = (index: number) => {
		current.current = Math.max(0, Math.min(shown.current.length - 1, index));
		setSelectedState(current.current);
	};

	// The rest of the list read a slice at a time, then looked at again while following. The selection stays on the
	// job it is on as jobs arrive above it or move as they are read.
	const [pending, setPending] = useState(source?.pending ?? 0);
	useEffect(() => {
		if (!source) return undefined;
		let timer: ReturnType<typeof setTimeout> | undefined;
		const tick = () => {
			const next = source.next(sliceMs);
			setPending(source.pending);
			if (next) {
				// Until the person moves, the selection is where the list opened it (the top, or the job they came back
				// from), however the rows read meanwhile reorder; then it is the job they chose.
				const on = moved.current || typedNow.current ? shown.current[current.current]?.path : (initialJobPath ?? next[0]?.path);
				all.current = next;
				const visible = jobsMatching(next, typedNow.current?.text ?? '');
				const at = visible.findIndex(job => job.path === on);
				shown.current = visible;
				setJobs(visible);
				setSelected(at >= 0 ? at : current.current);
			}

			timer = source.pending > 0 ? setTimeout(tick, 0) : source.everyMs === undefined ? undefined : setTimeout(tick, source.everyMs);
		};

		timer = source.pending > 0 ? setTimeout(tick, 0) : source.everyMs === undefined ? undefined : setTimeout(tick, source.everyMs);
		return () => clearTimeout(timer);
	}, [source]);

	const height = Math.max(1, rows - 4);
	const top = Math.max(0, Math.min(selected - Math.floor(height / 2), jobs.length - height));
	const chosen = useRef(false);
	const choose = (job: JobListing | undefined) => {
		if (chosen.current) return;
		chosen.current = true;
		if (job) handOff();
		onChoose(job);
		exit();
	};

	// The chooser uses a few of the viewer's commands and leaves the rest unhandled.
	const moves: Partial<Record<Command, () => number>> = {
		'nav.up': () => current.current - 1,
		'nav.down': () => current.current + 1,
		'nav.pageUp': () => current.current - height,
		'nav.pageDown': () => current.current + height,
		'nav.top': () => 0,
		'nav.bottom': () => shown.current.length - 1,
	};
	// Enter, space or →/l open the job, as they open a pane in the viewer.
	const opens: ReadonlySet<Command> = new Set(['item.activate', 'pane.expand', 'replay.pause']);
	const quits: ReadonlySet<Command> = new Set(['app.quit', 'app.interrupt', 'overlay.close']);
	// While `/` is open, keys edit what is typed (as in the viewer's prompts); ↑↓ move among what it finds, enter
	// opens the one selected, esc shows every job again.
	useTextCapture(
		(input, key) => {
			const line = typedNow.current;
			if (!line) return;
			if (key.escape || (key.ctrl && input === 'c')) {
				// Every job again, the one selected still selected.
				const on = shown.current[current.current]?.path;
				setTyped(undefined);
				shown.current = all.current;
				setJobs(all.current);
				moved.current = true;
				setSelected(
					Math.max(
						0,
						all.current.findIndex(job => job.path === on),
					),
				);
				return;
			}

			if (key.return) {
				const job = shown.current[current.current];
				if (job) choose(job);
				return;
			}

			const step = key.upArrow ? -1 : key.downArrow ? 1 : key.pageUp ? -height : key.pageDown ? height : 0;
			if (step !== 0) {
				moved.current = true;
				setSelected(current.current + step);
				return;
			}

			const edit = lineEditFor(input, key, line);
			if (!edit) return;
			const next = editLine(line, edit);
			setTyped(next);
			if (next.text !== line.text) showMatching(next.text);
		},
		() => typedNow.current !== undefined,
	);
	useCommands(priorities.app, command => {
		const move = moves[command];
		if (move) {
			moved.current = true;
			setSelected(move());
		} else if (command === 'search.open') setTyped(lineOf(''));
		else if (opens.has(command)) choose(shown.current[current.current]);
		else if (quits.has(command)) choose(undefined);
		// Writing nothing through Ink makes it draw its last frame again: the repaint after `fg`.
		else if (command === 'app.suspend') onSuspend?.(() => write(''));
		else return false;
		return true;
	});

	// Below this width a job id shows its first 12 characters, as the header does, so the date still fits.
	const jobColumn = columns >= 92 ? 24 : 12;
	// What each job was asked, where at least a few words of it fit after the date (cut at the edge).
	const showQuery = columns - (jobColumn + 68) >= minQueryColumns;
	// Sessions of all Claude Code's projects together: the project of each, before its query, where there is room.
	const projectColumn = all.current.some(job => job.project !== undefined) && showQuery ? Math.min(24, Math.floor((columns - (jobColumn + 68)) / 2)) : 0;
	return (
		<Box flexDirection="column" width={columns} height={rows - 1}>
			<Line width={columns}>
				<Text bold color={palette.accent}>
					perscope
				</Text>
				<Text color={palette.muted}>
					{' '}
					· {typed && typed.text.trim() !== '' ? `${formatCount(jobs.length)} of ${plural(all.current.length, 'job')}` : plural(jobs.length, 'job')} in{' '}
					{sanitizeLine(root)} · newest first{pending > 0 ? ` · reading… ${formatCount(pending)} left` : ''}
					{source?.everyMs === undefined ? '' : ' · following'}
				</Text>
			</Line>
			<Line width={columns} color={palette.muted}>
				{'  '}
				{padEnd('JOB', jobColumn)} {padEnd('EXPERT', 16)} {padEnd('STATUS', 16)} {'STEPS'.padStart(5)} {'RUNS'.padStart(4)}{' '}
				{showQuery ? `${padEnd('STARTED', 19)} ${projectColumn > 0 ? `${padEnd('PROJECT', projectColumn)} ` : ''}QUERY` : 'STARTED'}
			</Line>
			<Box flexDirection="column" height={height}>
				{jobs.length === 0 ? <Text color={palette.muted}>{all.current.length === 0 ? 'No jobs here.' : 'No job holds what is typed.'}</Text> : null}
				{jobs.slice(top, top + height).map((job, offset) => {
					const look = job.pending ? readingLook : statusLook[job.status];
					const isSelected = top + offset === selected;
					return (
						<Line key={job.path} width={columns} inverse={isSelected}>
							{isSelected ? '› ' : '  '}
							{padEnd(sanitizeLine(job.jobId).slice(0, jobColumn), jobColumn)} {padEnd(job.pending ? '' : sanitizeLine(job.coordinator ?? '?'), 16)}{' '}
							<Text color={toneColor(look.tone)}>{padEnd(`${look.glyph} ${look.word}`, 16)}</Text> {(job.pending ? '' : formatCount(job.steps)).padStart(5)}{' '}
							{(job.pending ? '' : formatCount(job.runs)).padStart(4)} {/* The format --print and the piped job list use, so the two can be compared. */}
							{showQuery
								? `${padEnd(job.startedAt === undefined ? '' : formatDateTime(job.startedAt), 19)} ${projectColumn > 0 ? `${padEnd(truncateEnd(sanitizeLine(job.project ?? ''), projectColumn), projectColumn)} ` : ''}${job.query === undefined ? '' : firstLine(job.query)}`
								: job.startedAt === undefined
									? ''
									: formatDateTime(job.startedAt)}
						</Line>
					);
				})}
			</Box>
			{typed ? (
				<Line width={columns}>
					<Text color={palette.accent}>/</Text>
					<PromptText line={typed} columns={Math.max(1, columns - 1 - displayWidth(findKeys))} />
					<Text color={palette.muted}>{findKeys}</Text>
				</Line>
			) : (
				<Text color={palette.muted}>↑↓ choose · enter open · / find · q quit</Text>
			)}
		</Box>
	);
}

/** The keys shown after what is typed at `/`. */
const findKeys = '  ↑↓ choose · enter open · esc every job';

/** A job not read yet. */
const readingLook = {glyph: '…', word: 'reading', tone: 'muted'} as const;

/** Columns a query needs to be worth showing in a row: fewer, and the row ends with the date. */
const minQueryColumns = 10;
