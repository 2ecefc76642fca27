import {once} from 'node:events';
import {basename, dirname} from 'node:path';
import {readConversation} from '../input/reread/message-line.js';
import {RawEvents} from '../input/reread/raw-events.js';
import type {InputPlan} from '../input/inputs.js';
import {inputEndOf} from '../input/source-state.js';
import {stopOnSignals} from '../input/stop-on-signals.js';
import {Ingest} from '../load/ingest.js';
import {runSourcesFast} from '../load/run-sources-fast.js';
import type {Diagnostic} from '../model/events.js';
import {createModel, endInput, keepFiguresOnly} from '../model/state.js';
import {conversationLines, conversationText} from '../text/conversation.js';
import {cutOffText} from '../query/tree.js';
import {diagnosticLine} from '../text/diagnostic-line.js';
import {sanitizeLine} from '../text/sanitize.js';
import {findConversation} from '../query/conversation-target.js';
import type {RunOptions} from './run-options.js';
import type {StdStreams} from './streams.js';
import {outputOpenAfterExitMs} from './waiting-notes.js';

export type ConversationRequest = {run: string; step: number | undefined};

/** The signals that end a run of --conversation. */
const endingSignals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * `perscope --conversation RUN[@STEP]`: loads the input as `--summary` does (histories cut, never kept), finds
 * the step, and reads the one line that holds its messages again: a plain file at its offset; stdin and a command
 * from the copy made as they are read; a .gz from the bounded buffer of its recent lines, which may have let it go.
 */
export async function runConversation(
	plan: InputPlan,
	request: ConversationRequest,
	options: Pick<RunOptions, 'maxLineBytes' | 'fast' | 'tuning' | 'dialect' | 'claudeProjects' | 'codexSessions' | 'geminiFolder'>,
	streams: StdStreams,
): Promise<number> {
	// Stdin and a command's output are copied to a temporary file as they are read (removed when this ends), as the
	// viewer copies them: the step's line, or a Claude Code transcript or Codex rollout piped in whole, is read from it.
	const raw = new RawEvents({spool: true});
	// A signal ends the process without its exit handlers: the copy is removed first, then the signal does what it
	// does. A command's signals are handled by stopOnSignals (they go to the command first), which ends this in turn.
	// Listened for before the copy's folder is made: a signal that came between the two left the folder behind.
	const command = plan.inputs.some(input => input.kind === 'command');
	const onSignal = (signal: NodeJS.Signals) => {
		raw.close();
		for (const name of endingSignals) process.off(name, onSignal);
		process.kill(process.pid, signal);
	};

	if (!command) for (const name of endingSignals) process.on(name, onSignal);
	try {
		raw.addPlan(plan);
		return await conversationOf(plan, request, options, streams, raw);
	} finally {
		for (const name of endingSignals) process.off(name, onSignal);
		raw.close();
	}
}

async function conversationOf(
	plan: InputPlan,
	request: ConversationRequest,
	options: Pick<RunOptions, 'maxLineBytes' | 'fast' | 'tuning' | 'dialect' | 'claudeProjects' | 'codexSessions' | 'geminiFolder'>,
	streams: StdStreams,
	raw: RawEvents,
): Promise<number> {
	const {stdout, stderr} = streams;
	const onDiagnostic = (diagnostic: Diagnostic) => {
		stderr.write(`perscope: ${diagnosticLine(diagnostic)}\n`);
	};

	const model = createModel();
	// The step's messages are read again from the log: of the model, only runs and their steps are asked for.
	keepFiguresOnly(model);
	const ingest = new Ingest({
		maxLineBytes: options.maxLineBytes,
		onDiagnostic,
		model,
		fast: options.fast,
		dialect: options.dialect,
		onLine: line => raw.remember(line),
	});
	const onStderr = (text: string) => stderr.write(`[stderr] ${sanitizeLine(text)}\n`);
	const running = (options.fast ? runSourcesFast : (await import('../input/run-sources.js')).runSources)(
		plan,
		ingest,
		{onStderr, idleAfterExitMs: options.tuning?.outputOpenAfterExitMs ?? outputOpenAfterExitMs, stdin: streams.stdin},
		{tuning: options.tuning},
	);
	const command = plan.inputs.some(input => input.kind === 'command');
	const signals = command ? stopOnSignals(running, command) : undefined;
	const ended = await (signals ? Promise.race([running.done, signals.decided]) : running.done);
	const exitCode = signals?.code() ?? ended;
	signals?.remove();
	endInput(model, inputEndOf(running.states));

	const found = findConversation(model, request.run, request.step);
	if (!found.ok) {
		stderr.write(`perscope: --conversation: ${sanitizeLine(found.message)}\n`);
		return 2;
	}

	const {run, line} = found.target;
	// A line number, not the source's name: the same bytes give the same output from a file, a pipe or a .gz.
	const where = raw.isEventFile(line.source) ? `the step's event file in ${basename(dirname(line.source))}` : `line ${line.line}`;
	const text = readConversation(raw, line, options);
	if (text === undefined) {
		stderr.write(
			`perscope: --conversation: the messages of step ${line.step} of run ${sanitizeLine(run.runId)} (${sanitizeLine(where)}) are no longer available: a .gz keeps only its most recent lines (a pipe or a command too, when no temporary copy of it could be written), and a file may have changed since; save the log to a file and give the file\n`,
		);
		return 1;
	}

	// A step that could not be read where its runtime keeps it (a Claude Code session's transcript not on this machine).
	if (typeof text !== 'string' && text.kind === 'none') {
		stderr.write(`perscope: --conversation: ${sanitizeLine(text.why)}\n`);
		return 1;
	}

	const cut = cutOffText(model, run);
	const cutOff = cut?.step === line.step ? cut : undefined;
	stdout.write(conversationText(conversationLines(text, {runId: run.runId, expertKey: run.expertKey, step: line.step, where, cutOff})));
	if (stdout.writableNeedDrain) await once(stdout, 'drain');
	return exitCode;
}
