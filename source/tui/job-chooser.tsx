import {Box, Text, useApp, useInput} from 'ink';
import React, {useState} from 'react';
import type {JobListing} from '../load/job-listing.js';
import {formatCount, formatDateTime, plural} from '../present/format.js';
import {sanitizeLine} from '../present/sanitize.js';
import {padEnd} from '../present/width.js';
import {statusLook} from '../present/status.js';
import {useTerminalSize} from './use-terminal-size.js';
import {Line} from './line.js';

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

	// Below this width a job id shows its first 12 characters, as the header does, so the date still fits.
	const jobColumn = columns >= 92 ? 24 : 12;
	return (
		<Box flexDirection="column" width={columns} height={rows - 1}>
			<Line width={columns}>
				<Text bold color="cyan">
					perscope
				</Text>
				<Text color="gray"> · {plural(jobs.length, 'job')} in {sanitizeLine(root)} · newest first</Text>
			</Line>
			<Line width={columns} color="gray">
				{'  '}
				{padEnd('JOB', jobColumn)} {padEnd('EXPERT', 16)} {padEnd('STATUS', 16)} {'STEPS'.padStart(5)} {'RUNS'.padStart(4)} STARTED
			</Line>
			<Box flexDirection="column" height={height}>
				{jobs.length === 0 ? <Text color="gray">No jobs here.</Text> : null}
				{jobs.slice(top, top + height).map((job, offset) => {
					const look = statusLook[job.status];
					const isSelected = top + offset === selected;
					return (
						<Line key={job.path} width={columns} inverse={isSelected}>
							{isSelected ? '› ' : '  '}
							{padEnd(sanitizeLine(job.jobId).slice(0, jobColumn), jobColumn)} {padEnd(sanitizeLine(job.coordinator ?? '?'), 16)}{' '}
							<Text color={look.color}>{padEnd(`${look.glyph} ${look.word}`, 16)}</Text> {formatCount(job.steps).padStart(5)} {formatCount(job.runs).padStart(4)}{' '}
							{/* The format --print and the piped job list use, so the two can be compared. */}
							{job.startedAt === undefined ? '' : formatDateTime(job.startedAt)}
						</Line>
					);
				})}
			</Box>
			<Text color="gray">↑↓ choose · enter open · q quit</Text>
		</Box>
	);
}
