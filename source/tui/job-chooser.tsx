import {Box, Text, useApp, useInput} from 'ink';
import React, {useState} from 'react';
import type {JobListing} from '../load/job-listing.js';
import {formatCount} from '../present/format.js';
import {sanitizeLine} from '../present/sanitize.js';
import {padEnd} from '../present/width.js';
import {statusLook} from '../present/status.js';
import {useTerminalSize} from './use-terminal-size.js';

/**
 * `perscope perstack`: the saved jobs, newest first; enter opens one. Resolves through `onChoose`
 * (undefined when the person quits instead).
 */
export function JobChooser({root, jobs, onChoose}: {root: string; jobs: JobListing[]; onChoose: (job: JobListing | undefined) => void}) {
	const {exit} = useApp();
	const {columns, rows} = useTerminalSize();
	const [selected, setSelected] = useState(0);
	const height = Math.max(1, rows - 4);
	const top = Math.max(0, Math.min(selected - Math.floor(height / 2), jobs.length - height));
	const choose = (job: JobListing | undefined) => {
		onChoose(job);
		exit();
	};

	useInput((input, key) => {
		if (key.upArrow || input === 'k') setSelected(index => Math.max(0, index - 1));
		else if (key.downArrow || input === 'j') setSelected(index => Math.min(jobs.length - 1, index + 1));
		else if (key.pageUp) setSelected(index => Math.max(0, index - height));
		else if (key.pageDown) setSelected(index => Math.min(jobs.length - 1, index + height));
		else if (key.return || input === ' ') choose(jobs[selected]);
		else if (input === 'q' || key.escape || (key.ctrl && input === 'c')) choose(undefined);
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
