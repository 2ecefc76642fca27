import {once} from 'node:events';
import {Ingest} from '../ingest.js';
import type {Diagnostic} from '../model/events.js';
import {sanitizeLine} from '../text/sanitize.js';
import type {InputPlan} from '../sources/inputs.js';
import {listJobs} from '../sources/job-listing.js';
import {runSources} from '../sources/run-sources.js';
import {stopOnSignals} from '../sources/stop-on-signals.js';
import {jobListTable} from './job-list-table.js';
import {buildSummary} from './summary.js';
import {summaryTable} from './summary-table.js';
import {TranscriptWriter} from './transcript.js';

export type HeadlessMode = 'print' | 'json' | 'summary' | 'summary-json';

/**
 * Output for pipes and scripts, with no Ink involved. Transcripts stream as events arrive; summaries are
 * written once the input ends.
 */
export async function runHeadless(plan: InputPlan, options: {mode: HeadlessMode; maxLineBytes: number}): Promise<number> {
	const stdout = process.stdout;
	// `perscope --print big.ndjson | head`: the reader went away, which is not an error of ours.
	stdout.on('error', error => {
		if (Reflect.get(error, 'code') === 'EPIPE') process.exit(0);
		throw error;
	});

	if (plan.jobsRoot !== undefined) {
		const jobs = listJobs(plan.jobsRoot);
		stdout.write(options.mode === 'json' || options.mode === 'summary-json' ? JSON.stringify({root: plan.jobsRoot, jobs}) + '\n' : jobListTable(plan.jobsRoot, jobs));
		if (stdout.writableNeedDrain) await once(stdout, 'drain');
		return 0;
	}

	const onDiagnostic = (diagnostic: Diagnostic) => {
		if (options.mode === 'summary-json') return;
		process.stderr.write(`perscope: ${sanitizeLine(diagnostic.source)}:${diagnostic.line}: ${sanitizeLine(diagnostic.reason)}\n`);
	};

	const ingest = new Ingest({maxLineBytes: options.maxLineBytes, onDiagnostic});
	const write = (text: string) => {
		stdout.write(text);
	};

	const transcript =
		options.mode === 'print' || options.mode === 'json' ? new TranscriptWriter(ingest.model, options.mode === 'json' ? 'json' : 'text', write) : undefined;

	const afterChunk = async () => {
		transcript?.flush(false);
		if (stdout.writableNeedDrain) await once(stdout, 'drain');
	};

	// A command's stderr is not ours to swallow: it goes to our stderr as it arrives, made harmless to the terminal.
	const onStderr = (text: string) => {
		process.stderr.write(`[stderr] ${sanitizeLine(text)}\n`);
	};

	const running = runSources(plan, ingest, {afterChunk, onStderr});
	const live = plan.follow || plan.inputs.some(input => input.kind === 'command');
	const removeSignalHandlers = live ? stopOnSignals(running) : () => undefined;
	const exitCode = await running.done;
	removeSignalHandlers();
	transcript?.flush(true);
	if (options.mode === 'summary') write(summaryTable(ingest.model));
	if (options.mode === 'summary-json') write(JSON.stringify(buildSummary(ingest.model)) + '\n');
	if (stdout.writableNeedDrain) await once(stdout, 'drain');
	return exitCode;
}
