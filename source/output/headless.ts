import {once} from 'node:events';
import {Ingest} from '../ingest.js';
import type {Diagnostic} from '../model/events.js';
import {matches, type Filter} from '../model/filter.js';
import type {Activity} from '../model/state.js';
import {sanitizeLine} from '../text/sanitize.js';
import type {InputPlan} from '../sources/inputs.js';
import {listJobs} from '../sources/job-listing.js';
import {Replay, ReplayIngest} from '../sources/replay.js';
import {runSourcesFast} from '../sources/parallel-file.js';
import {runSources} from '../sources/run-sources.js';
import {stopOnSignals} from '../sources/stop-on-signals.js';
import {jobListTable} from './job-list-table.js';
import {jsonForTerminal} from './activity-json.js';
import {buildSummary} from './summary.js';
import {summaryTable} from './summary-table.js';
import {TranscriptWriter} from './transcript.js';

export type HeadlessMode = 'print' | 'json' | 'summary' | 'summary-json';

export type HeadlessOptions = {
	mode: HeadlessMode;
	maxLineBytes: number;
	/** Applies to the transcripts (`print`, `json`); summaries always cover everything. */
	filter?: Filter | undefined;
	/** Pace the transcripts by the events' timestamps, this many times as fast as they happened. */
	replaySpeed?: number | undefined;
};

/**
 * Output for pipes and scripts, with no Ink involved. Transcripts stream as events arrive; summaries are
 * written once the input ends.
 */
export async function runHeadless(plan: InputPlan, options: HeadlessOptions): Promise<number> {
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

	const transcribing = options.mode === 'print' || options.mode === 'json';
	// A summary is the same whenever it is written, so pacing it would only make it late.
	const replay = transcribing && options.replaySpeed !== undefined ? new Replay({speed: options.replaySpeed}) : undefined;
	const ingest = replay ? new ReplayIngest({maxLineBytes: options.maxLineBytes, onDiagnostic, replay}) : new Ingest({maxLineBytes: options.maxLineBytes, onDiagnostic});
	const write = (text: string) => {
		stdout.write(text);
	};

	const {filter} = options;
	let hidden = 0;
	const include = (activity: Activity) => {
		if (!filter || matches(filter, activity, ingest.model)) return true;
		hidden++;
		return false;
	};

	const transcript = transcribing ? new TranscriptWriter(ingest.model, options.mode === 'json' ? 'json' : 'text', write, include) : undefined;

	const flushOutput = async () => {
		transcript?.flush(false);
		if (stdout.writableNeedDrain) await once(stdout, 'drain');
	};

	const afterChunk = async () => {
		// Replayed lines reach the model only when they are due; what is due is written before each wait.
		if (ingest instanceof ReplayIngest) await ingest.drain(flushOutput);
		await flushOutput();
	};

	// A command's stderr is not ours to swallow: it goes to our stderr as it arrives, made harmless to the terminal.
	const onStderr = (text: string) => {
		process.stderr.write(`[stderr] ${sanitizeLine(text)}\n`);
	};

	// A transcript is written as lines arrive, so what it shows depends on where reading pauses; only the
	// summaries, made from the finished model, are read the parallel way (see sources/parallel-file.ts).
	const running = (transcript ? runSources : runSourcesFast)(plan, ingest, {afterChunk, onStderr});
	const live = plan.follow || plan.inputs.some(input => input.kind === 'command') || replay !== undefined;
	// Ctrl-C during a replay shows the rest of what was read at once, then ends.
	const stoppable = replay
		? {
				...running,
				stop: () => {
					replay.finish();
					running.stop();
				},
			}
		: running;
	const removeSignalHandlers = live ? stopOnSignals(stoppable) : () => undefined;
	const exitCode = await running.done;
	removeSignalHandlers();
	transcript?.flush(true);
	if (transcript && filter) process.stderr.write(`perscope: ${hidden} ${hidden === 1 ? 'activity' : 'activities'} hidden by the filter\n`);
	if (options.mode === 'summary') write(summaryTable(ingest.model));
	if (options.mode === 'summary-json') write(jsonForTerminal(buildSummary(ingest.model)) + '\n');
	if (stdout.writableNeedDrain) await once(stdout, 'drain');
	return exitCode;
}
