import {subtractUsage} from '../../../model/usage.js';
import {errorText} from './content.js';
import {reportedCost} from './cost.js';
import type {ClaudeLineOf} from './schema.js';
import type {ClaudeStream} from './stream.js';
import {largerUsage, usageOf} from './usage.js';

/*
 * Claude Code's `result` lines (reader.ts): the end of a turn of the main loop. Results close turns in the order
 * the turns began, since a process prints the results of its earlier turns late. A result gives the turn's usage
 * with the final output counts its lines lack, the cost the CLI reports (cost.ts), how long the turn took, and
 * how it ended: its error subtypes (`error_max_turns`, `error_during_execution`, …) are the run's end and reason.
 */

/**
 * A transcript's turn that no line said had ended (2.1.3x's responses carry no stop reason; a turn the person stopped
 * with Esc has none), ended by the person's next line: answered (`prompt`: they typed again; its last text is its
 * answer) or `interrupted` (the CLI's `[Request interrupted by user]`). It ends `at` its own last line's time.
 */
export function endOpenTurn(stream: ClaudeStream, runId: string, how: 'prompt' | 'interrupted', at: number | undefined): void {
	const turn = stream.sessionState().turns.find(candidate => candidate.runId === runId);
	if (!turn || turn.closed) return;
	turn.closed = true;
	const interrupted = how === 'interrupted';
	stream.emit(
		runId,
		interrupted
			? {kind: 'runEnd', status: 'stoppedByError', text: undefined, message: 'the person stopped it', usage: undefined, errorName: 'interrupted'}
			: {kind: 'runEnd', status: 'completed', text: undefined, message: undefined, usage: undefined},
		undefined,
		undefined,
		at,
	);
}

export function readResult(stream: ClaudeStream, line: ClaudeLineOf<'result'>): void {
	const session = stream.sessionState();
	// The oldest turn still open: a process prints its earlier turns' results late. None open: a turn of its own.
	const runId = session.turns.find(candidate => !candidate.closed)?.runId ?? stream.startTurn(undefined);
	session.turns.find(candidate => candidate.runId === runId)!.closed = true;
	const state = stream.state(runId);
	// The main loop's usage of the turn, with the final output counts its lines lack.
	if (line.usage) {
		const more = subtractUsage(largerUsage(state.usage, usageOf(line.usage)), state.usage);
		if (more.totalTokens > 0) stream.countUsage(runId, undefined, more);
	}

	const cost = reportedCost(session, line);
	if (cost) stream.emit(runId, {kind: 'reportedCost', usd: cost.usd, runIds: cost.runIds});
	// The turn's first lines may carry no time (2.0, and 2.1's assistant lines): its result says how long it took,
	// counted back from the last time the stream gave. A stream that gave none (2.0, Amp) still has the turn's
	// duration, by the CLI's own count.
	const durationMs = line.duration_ms !== undefined && line.duration_ms >= 0 ? line.duration_ms : undefined;
	const time = stream.lastTime;
	if (durationMs !== undefined && time !== undefined) stream.emit(runId, {kind: 'marker'}, undefined, undefined, time - durationMs);
	const isError = line.is_error === true || line.subtype !== 'success';
	if (!isError) {
		// A turn that was a slash command's (`/compact`) answered with what the command printed.
		const text = (line.result ?? '') === '' ? (state.commandOutput ?? line.result) : line.result;
		stream.emit(runId, {kind: 'runEnd', status: 'completed', text, message: undefined, usage: undefined, durationMs});
		return;
	}

	const errors = (line.errors ?? []).map(error => errorText(error)).filter(text => text !== undefined);
	const message = errors.length > 0 ? errors.join('; ') : (errorText(line.error) ?? line.result ?? line.terminal_reason ?? line.subtype);
	const maxTurns = line.subtype === 'error_max_turns';
	stream.emit(runId, {kind: 'runError', name: line.subtype === 'success' ? 'error' : line.subtype, message});
	stream.emit(runId, {
		kind: 'runEnd',
		status: maxTurns ? 'stoppedByExceededMaxSteps' : 'stoppedByError',
		text: undefined,
		message,
		usage: undefined,
		durationMs,
	});
}
