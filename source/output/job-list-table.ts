import type {JobListing} from '../query/job-listing.js';
import {firstLine} from '../text/first-line.js';
import {sanitizeLine} from '../text/sanitize.js';
import {displayWidth, padEnd, truncateEnd} from '../text/width/width.js';
import {jobStatusText} from './run-marks.js';
import {columnWidths} from './column-widths.js';

const queryColumns = 60;

/** The jobs of a jobs directory (or a folder of Claude Code sessions) as a plain table, newest first, for `perscope perstack` in a pipe. */
export function jobListTable(root: string, jobs: JobListing[]): string {
	if (jobs.length === 0) return `no jobs in ${sanitizeLine(root)}\n`;
	// Sessions of all Claude Code's projects together: which project each is of.
	const projects = jobs.some(job => job.project !== undefined);
	const header = ['JOB', 'EXPERT', 'STATUS', 'STEPS', 'RUNS', 'STARTED', ...(projects ? ['PROJECT'] : []), 'QUERY'];
	const rows = jobs.map(job => [
		sanitizeLine(job.jobId),
		sanitizeLine(job.coordinator ?? '?'),
		jobStatusText({status: job.status, failure: undefined}),
		String(job.steps),
		String(job.runs),
		formatTime(job.startedAt ?? job.lastEventAt),
		...(projects ? [sanitizeLine(job.project ?? '')] : []),
		// What the job was asked, its first line, cut so that a row stays a line of a terminal's width or so.
		job.query === undefined ? '' : truncateEnd(firstLine(job.query), queryColumns),
	]);
	const widths = columnWidths(header, rows);
	const numeric = new Set([3, 4]);
	return (
		[header, ...rows]
			.map(row =>
				row
					.map((cell, column) => {
						const width = widths[column] ?? 0;
						if (column === row.length - 1) return cell;
						return numeric.has(column) ? ' '.repeat(Math.max(0, width - displayWidth(cell))) + cell : padEnd(cell, width);
					})
					.join('  ')
					.trimEnd(),
			)
			.join('\n') + '\n'
	);
}

/** Local time, to the second: when a person started a job, in their own clock. */
function formatTime(ms: number | undefined): string {
	if (ms === undefined) return '';
	const date = new Date(ms);
	const two = (value: number) => String(value).padStart(2, '0');
	return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}
