import {Box, Text, useApp, useStdout} from 'ink';
import React, {useRef, useState} from 'react';
import type {JobListing} from '../load/job-listing.js';
import {formatCount} from '../present/format.js';
import {sanitizeLine} from '../present/sanitize.js';
import {padEnd} from '../present/width.js';
import {statusLook} from '../present/status.js';
import type {Command} from './keymap.js';
import {KeypressProvider, priorities, useCommands} from './keypress.js';
import {useTerminalSize} from './use-terminal-size.js';

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
};

export function JobChooser(props: ChooserProps) {
	// Keys go through the same provider as the viewer's, which splits a burst (`jj` + enter in one read,
	// from type-ahead, key repeat or a slow ssh link) into its presses.
	return (
		<KeypressProvider>
			<ChooserList {...props} />
		</KeypressProvider>
	);
}

function ChooserList({root, jobs, onChoose, initialJobPath, onSuspend}: ChooserProps) {
	const {exit} = useApp();
	const {write} = useStdout();
	const {columns, rows} = useTerminalSize();
	const [selected, setSelectedState] = useState(() => Math.max(0, jobs.findIndex(job => job.path === initialJobPath)));
	// The presses of one burst are handled before React renders again: each must see where the last one moved.
	const current = useRef(selected);
	const setSelected = (index: number) => {
		current.current = Math.max(0, Math.min(jobs.length - 1, index));
		setSelectedState(current.current);
	};

	const height = Math.max(1, rows - 4);
	const top = Math.max(0, Math.min(selected - Math.floor(height / 2), jobs.length - height));
	const chosen = useRef(false);
	const choose = (job: JobListing | undefined) => {
		if (chosen.current) return;
		chosen.current = true;
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
		'nav.bottom': () => jobs.length - 1,
	};
	// Enter, space or →/l open the job, as they open a pane in the viewer.
	const opens: ReadonlySet<Command> = new Set(['item.activate', 'pane.expand', 'replay.pause']);
	const quits: ReadonlySet<Command> = new Set(['app.quit', 'app.interrupt', 'overlay.close']);
	useCommands(priorities.app, command => {
		const move = moves[command];
		if (move) setSelected(move());
		else if (opens.has(command)) choose(jobs[current.current]);
		else if (quits.has(command)) choose(undefined);
		// Writing nothing through Ink makes it draw its last frame again: the repaint after `fg`.
		else if (command === 'app.suspend') onSuspend?.(() => write(''));
		else return false;
		return true;
	});

	return (
		<Box flexDirection="column" width={columns} height={rows - 1}>
			<Text wrap="truncate-end">
				<Text bold color="cyan">
					perscope
				</Text>
				<Text color="gray"> · {jobs.length} jobs in {sanitizeLine(root)} · newest first</Text>
			</Text>
			<Text wrap="truncate-end" color="gray">
				{'  '}
				{padEnd('JOB', 26)} {padEnd('EXPERT', 20)} {padEnd('STATUS', 22)} {padEnd('STEPS', 6)} STARTED
			</Text>
			<Box flexDirection="column" height={height}>
				{jobs.length === 0 ? <Text color="gray">No jobs here.</Text> : null}
				{jobs.slice(top, top + height).map((job, offset) => {
					const look = statusLook[job.status];
					const isSelected = top + offset === selected;
					return (
						<Text key={job.path} wrap="truncate-end" inverse={isSelected}>
							{isSelected ? '› ' : '  '}
							{padEnd(sanitizeLine(job.jobId), 26)} {padEnd(sanitizeLine(job.coordinator ?? '?'), 20)}{' '}
							<Text color={look.color}>{padEnd(`${look.glyph} ${look.word}`, 22)}</Text> {padEnd(formatCount(job.steps), 6)}{' '}
							{job.startedAt === undefined ? '' : new Date(job.startedAt).toLocaleString()}
						</Text>
					);
				})}
			</Box>
			<Text color="gray">↑↓ choose · enter open · q quit</Text>
		</Box>
	);
}
