import {once} from 'node:events';
import {basename} from 'node:path';
import {Ingest} from '../load/ingest.js';
import type {Diagnostic} from '../model/events.js';
import {createModel, endInput, keepFiguresOnly, keepNoMessageLines, type Activity} from '../model/state.js';
import {listedInputs, type InputPlan} from '../input/inputs.js';
import {runPlainFiles} from '../load/parallel/parallel-file.js';
import {plainFiles} from '../input/plain-files.js';
import {YoungGenerationCap} from '../load/young-generation.js';
import {HeapGrowthHold} from '../load/heap-growth.js';
import {inputEndOf, type RunningSources, type SourcesHooks} from '../input/source-state.js';
import {stopOnSignals} from '../input/stop-on-signals.js';
import {outputOpenAfterExitMs, waitingNotes} from './waiting-notes.js';
import {builtinPrices} from '../query/prices.js';
import type {RunOptions} from './run-options.js';
import {liveSources} from './live-sources.js';
import type {StdStreams} from './streams.js';

export type HeadlessMode = 'print' | 'json' | 'summary' | 'summary-json' | 'conversation';

export type HeadlessOptions = RunOptions & {
	mode: HeadlessMode;
	/** `--conversation RUN[@STEP]`, for the mode `conversation`. */
	conversation?: {run: string; step: number | undefined} | undefined;
};

/**
 * Output for pipes and scripts, with no Ink involved. Transcripts stream as events arrive; summaries are
 * written once the input ends. Each mode loads only the modules it writes with: `--summary --json` of a
 * small log takes less time than loading them all.
 */
export async function runHeadless(plan: InputPlan, options: HeadlessOptions, streams: StdStreams): Promise<number> {
	const {stdout, stderr} = streams;
	// `perscope --print big.ndjson | head`: the reader went away, which is not an error of ours.
	stdout.on('error', error => {
		if (Reflect.get(error, 'code') === 'EPIPE') process.exit(0);
		throw error;
	});

	if (options.mode === 'conversation') {
		const {runConversation} = await import('./conversation.js');
		return runConversation(plan, options.conversation ?? {run: '', step: undefined}, options, streams);
	}

	if (plan.jobsRoot !== undefined) {
		const {listJobs, jobsOldestFirst} = await import('../load/job-listing.js');
		const {ListingCache} = await import('../load/listing-cache.js');
		const cache = new ListingCache(options.listingCache);
		// A summary of a jobs folder is the summary of its jobs, oldest first: their runs, tokens and cost, as
		// for the jobs' own directories given one by one. `--print` and `--json` list the jobs to open.
		const summary = options.mode === 'summary' || options.mode === 'summary-json';
		const oldestFirst = summary ? jobsOldestFirst(plan.jobsRoot, plan.jobsWhere, cache) : [];
		cache.save();
		if (oldestFirst.length > 0) {
			const inputs = oldestFirst.flatMap(({path, companions}) =>
				listedInputs(path, companions, false).map(input => ({...input, label: basename('path' in input ? input.path : input.label)})),
			);
			return runHeadless({...plan, jobsRoot: undefined, inputs}, options, streams);
		}

		const jobs = listJobs(plan.jobsRoot, plan.jobsWhere, cache);
		cache.save();

		const json = options.mode === 'json' || options.mode === 'summary-json';
		stdout.write(json ? JSON.stringify({root: plan.jobsRoot, jobs}) + '\n' : (await import('../output/job-list-table.js')).jobListTable(plan.jobsRoot, jobs));
		if (stdout.writableNeedDrain) await once(stdout, 'drain');
		return 0;
	}

	// `--summary --json` writes no diagnostics, so of files it writes nothing that needs the sanitiser.
	const command = plan.inputs.some(input => input.kind === 'command');
	const sanitizeLine = options.mode === 'summary-json' && !command && !plan.follow ? undefined : (await import('../text/sanitize.js')).sanitizeLine;
	const diagnosticLine = sanitizeLine ? (await import('../text/diagnostic-line.js')).diagnosticLine : undefined;
	const onDiagnostic = (diagnostic: Diagnostic) => {
		if (options.mode === 'summary-json' || !diagnosticLine) return;
		stderr.write(`perscope: ${diagnosticLine(diagnostic)}\n`);
	};

	const transcribing = options.mode === 'print' || options.mode === 'json';
	// A summary is the same whenever it is written, so pacing it would only make it late.
	const replaying = transcribing && options.replaySpeed !== undefined ? await import('../load/replay.js') : undefined;
	const replay = replaying && options.replaySpeed !== undefined ? new replaying.Replay({speed: options.replaySpeed}) : undefined;
	const model = createModel();
	// A summary shows no activity, only figures, and an export (which may send them) is not asked for: the model
	// keeps no tool output, and lets activities go once they no longer change a figure (`Model.figuresOnly`).
	// Nor where each step's messages are: only `--conversation` reads them again.
	if (!transcribing && !options.otlp) {
		keepFiguresOnly(model);
		keepNoMessageLines(model);
	}
	// The exporter (and the OpenTelemetry packages) load only when asked for.
	const otlp = options.otlp ? await (await import('../export/otlp/start.js')).OtlpExport.start(options.otlp, options.prices ?? builtinPrices) : undefined;
	otlp?.watch(() => model);
	const {filter} = options;
	const matches = transcribing && filter ? (await import('../query/filter.js')).matches : undefined;
	let hidden = 0;
	const shows = (activity: Activity) => !filter || !matches || matches(filter, activity, model);
	const include = (activity: Activity) => {
		if (shows(activity)) return true;
		hidden++;
		return false;
	};

	const prices = options.prices ?? builtinPrices;
	const transcript = transcribing
		? new (await import('../output/transcript.js')).TranscriptWriter(
				model,
				options.mode === 'json' ? 'json' : 'text',
				filter ? include : undefined,
				prices,
				filter ? shows : undefined,
			)
		: undefined;
	// What to write is decided after each event; it is written after each read.
	const afterEvent = transcript ? () => transcript.collect() : undefined;
	// Spans need times: with --otlp, a live stream's events that carry none (Codex's) are stamped as they arrive. Not
	// otherwise, so that the same bytes give the same --print, --json and --summary however they come (README).
	const arrivalClock = options.otlp ? liveSources(plan) : undefined;
	const ingestOptions = {maxLineBytes: options.maxLineBytes, onDiagnostic, model, afterEvent, fast: options.fast, dialect: options.dialect, arrivalClock};
	const ingest = replaying && replay ? new replaying.ReplayIngest({...ingestOptions, replay}) : new Ingest(ingestOptions);
	const write = (text: string) => {
		if (text !== '') stdout.write(text);
	};

	const flushOutput = async () => {
		if (transcript) write(transcript.take());
		if (stdout.writableNeedDrain) await once(stdout, 'drain');
	};

	const youngGeneration = new YoungGenerationCap();
	const heapGrowth = new HeapGrowthHold();
	const afterChunk = async () => {
		youngGeneration.afterChunk();
		heapGrowth.afterChunk();
		// Replayed lines reach the model only when they are due; what is due is written before each wait.
		if (replaying && ingest instanceof replaying.ReplayIngest) await ingest.drain(flushOutput);
		await flushOutput();
	};

	// A command's stderr is not ours to swallow: it goes to our stderr as it arrives, made harmless to the terminal.
	const onStderr = (text: string) => {
		if (sanitizeLine) stderr.write(`[stderr] ${sanitizeLine(text)}\n`);
	};

	// A transcript is written as lines arrive, so what it shows depends on where reading pauses; only the
	// summaries, made from the finished model, are read the parallel way (see load/parallel/parallel-file.ts).
	const idleAfterExitMs = options.tuning?.outputOpenAfterExitMs ?? outputOpenAfterExitMs;
	const onChange =
		(plan.follow || command) && sanitizeLine
			? waitingNotes(
					() => running.states,
					text => stderr.write(text),
					sanitizeLine,
					idleAfterExitMs,
				)
			: undefined;
	const hooks: SourcesHooks = {afterChunk, onStderr, onChange, idleAfterExitMs, stdin: streams.stdin};
	// A plain file read the fast way never needs runSources, nor its ~15 modules (commands, pipes, followed and
	// compressed files): they are imported only for a plan that does.
	const files = transcript || !options.fast ? undefined : plainFiles(plan);
	const running: RunningSources = files
		? runPlainFiles(plan, files, ingest, hooks, {tuning: options.tuning})
		: (await import('../input/run-sources.js')).runSources(plan, ingest, hooks);
	const live = plan.follow || command || replay !== undefined;
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
	const signals = live ? stopOnSignals(stoppable, command) : undefined;
	// A signal that ends perscope (with a command) decides the exit code, and nothing read is waited for after it.
	const ended = await (signals ? Promise.race([running.done, signals.decided]) : running.done);
	let exitCode = signals?.code() ?? ended;
	signals?.remove();
	endInput(model, inputEndOf(running.states));
	if (transcript) {
		transcript.finish();
		write(transcript.take());
	}

	if (transcript && filter) stderr.write(`perscope: ${hidden} ${hidden === 1 ? 'activity' : 'activities'} hidden by the filter\n`);
	if (options.mode === 'summary') write((await import('../output/summary-table.js')).summaryTable(ingest.model, prices));
	if (options.mode === 'summary-json') {
		const [{terminalSafeJson}, {summaryJsonPieces}] = await Promise.all([import('../output/activity-json.js'), import('../output/summary.js')]);
		// In pieces: the whole document as one string would cost several times the model (docs/performance.md).
		for (const piece of summaryJsonPieces(ingest.model, prices)) {
			write(terminalSafeJson(piece));
			if (stdout.writableNeedDrain) await once(stdout, 'drain');
		}

		write('\n');
	}

	if (stdout.writableNeedDrain) await once(stdout, 'drain');
	if (otlp) {
		const report = await otlp.finish(model);
		stderr.write(report.text);
		// An --otlp-file cut short is a file that could not be written (README, Exit codes); a command's own
		// failure says more and is kept.
		if (report.fileFailed && exitCode === 0) exitCode = 1;
		// A request still out past the flush bound would hold the process open until it timed out.
		if (report.abandoned) process.exit(exitCode);
	}

	return exitCode;
}
