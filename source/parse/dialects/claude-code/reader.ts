import {assertNever} from '../../../model/assert-never.js';
import {readOrJudge} from '../../normalise.js';
import type {EventRef} from '../../../model/events.js';
import {lineOnlyEvent, type ParsedOut, type ReaderOptions, type StreamReader, type WireRecord} from '../stream-dialect.js';
import {readAssistant} from './assistant.js';
import {readClaudeLine} from './fast-reader.js';
import {readStreamEvent} from './partial-messages.js';
import {endOpenTurn, readResult} from './result.js';
import {isTranscriptLine, TranscriptLines, type TurnMark} from './transcript.js';
import {claudeLineTypes, claudeSchemas, type ClaudeLine} from './schema.js';
import type {ClaudeFlavour} from './state.js';
import {ClaudeStream} from './stream.js';
import {endChild, runOf} from './sub-agents.js';
import {readSystem} from './system.js';
import {readUser} from './user.js';

export type {ClaudeFlavour} from './state.js';

/*
 * One Claude Code stream into the model's events (docs/model-rules.md, "Claude Code"). A session is a job. Each
 * turn of the main loop (a `system/init` starts one; `--resume` and a background task's end start more) is a
 * root run, which the turn's `result` ends: results close turns in the order the turns began, since a process
 * prints the results of its earlier turns late. An Agent (formerly Task) call is a delegation, and the lines
 * whose `parent_tool_use_id` is that call's id are its sub-agent's run (its id is the call's), under the run that
 * made the call, to any depth. A sub-agent in the background ends with its task's `task_notification`; one in
 * the foreground with its call's result. What one line says needs what came before it: which run made a call,
 * which responses' usage was counted, which turn a result ends (kept in stream.ts).
 *
 * This file takes a line (the fast reader's, or the schema's) to the reader of its type: system.ts, assistant.ts,
 * user.ts, result.ts, partial-messages.ts; sub-agents.ts places the runs of the sub-agents.
 */

export class ClaudeReader implements StreamReader {
	readonly #stream: ClaudeStream;

	/** Whether lines are read by the fast reader (fast-reader.ts) rather than the schema, the reference (PERSCOPE_FAST=0). */
	readonly #fast: boolean;

	/** What a session transcript's lines need from one line to the next (transcript.ts), once one is seen. */
	#transcript: TranscriptLines | undefined;

	/**
	 * Each transcript source's last line of the main loop's: where it was, its session and time, and whether it was a
	 * response that said something and called nothing (its turn's answer, in a transcript that writes no stop reason).
	 */
	readonly #lastOfSource = new Map<string, {ref: EventRef; session: string; at: number | undefined; answered: boolean}>();

	/** The same for each sub-agent a transcript names (its run), whose lines no call's result may end (a compaction's). */
	readonly #lastOfAgent = new Map<string, {ref: EventRef; at: number | undefined; answered: boolean}>();

	constructor(flavour: ClaudeFlavour, options: ReaderOptions = {}) {
		this.#stream = new ClaudeStream(flavour);
		this.#fast = options.fast ?? true;
	}

	read(record: WireRecord, out: ParsedOut): void {
		const {ref} = record;
		let {value} = record;
		const given = value['type'];
		if (typeof given !== 'string') {
			out({kind: 'diagnostic', diagnostic: {line: ref.line, source: ref.source, reason: 'not an event: no "type" field'}});
			return;
		}

		const stream = this.#stream;
		// A session transcript's line, read as the stream's it stands for (transcript.ts).
		let transcript: {endsTurn: boolean; sidechain: boolean; output?: string; turn?: TurnMark} | undefined;
		if (stream.flavour.dialect === 'claude-code' && isTranscriptLine(value)) {
			const read = (this.#transcript ??= new TranscriptLines()).read(value);
			if (read.kind === 'nothing') {
				out(lineOnlyEvent('marker', stream.flavour.dialect, given, ref));
				return;
			}

			({value} = read);
			transcript = read;
		}

		if (!claudeLineTypes.has(given)) {
			out(lineOnlyEvent('unknown', stream.flavour.dialect, given, ref));
			return;
		}

		const line = readOrJudge(this.#fast ? readClaudeLine(value) : undefined, () => claudeSchemas().line, value, given, ref, out);
		if (line === undefined) return;

		const before = stream.lastTime;
		// Another session's transcript in the same source (several piped one after the other): the last one's end first.
		const previous = transcript === undefined ? undefined : this.#lastOfSource.get(ref.source);
		if (previous !== undefined && line.session_id !== undefined && line.session_id !== '' && line.session_id !== previous.session)
			this.#settle(ref.source, out);
		if (line.timestamp !== undefined) stream.lastTime = line.timestamp;
		if (line.session_id !== undefined && line.session_id !== '') stream.session = line.session_id;
		stream.line = {
			ref,
			wireType: line.type === 'system' ? `system/${line.subtype}` : line.type,
			timestamp: line.timestamp,
			out,
			made: 0,
			transcript: transcript !== undefined,
		};
		try {
			// The person typed again, or stopped the turn, or the CLI said it was over, while no line of the model's had
			// said it ended (2.1.3x writes no stop reason; an interrupted turn has none): it ended at its own last line. A
			// turn of commands (no response in it yet: a compaction's summary, `! ls`) goes on with what they typed next.
			const mark = transcript?.turn;
			const going = mark === undefined ? undefined : openTurn(stream);
			if (mark !== undefined && going !== undefined && (mark === 'interrupted' || stream.state(going).step > 0))
				endOpenTurn(stream, going, mark === 'interrupted' ? 'interrupted' : 'prompt', previous?.at ?? before);
			if (mark === 'interrupted') {
				if (stream.line.made === 0) stream.marker();
				return;
			}

			// What a command the CLI ran printed answers and ends a turn of commands (the command's, begun by it or by
			// the compaction summary before it), as a result would. In a turn the model answered in (one left open when
			// the person interrupted it), it is what the person was shown, and ends nothing.
			const output = transcript?.output;
			const turn = output === undefined ? undefined : openTurn(stream);
			if (turn !== undefined && stream.state(turn).step === 0) {
				readResult(stream, {type: 'result', subtype: 'success', is_error: false, result: output, session_id: line.session_id});
				if (stream.line.made === 0) stream.marker();
				return;
			}

			dispatch(stream, line);
			// The model's side of a turn (its responses, its calls' results): where a turn no line ends ends.
			if (transcript !== undefined && (line.type === 'assistant' || isResults(line))) {
				const last = {ref, session: stream.session, at: line.timestamp ?? before, answered: answers(line)};
				const agent = transcript.sidechain ? line.parent_tool_use_id : undefined;
				if (!transcript.sidechain) this.#lastOfSource.set(ref.source, last);
				else if (typeof agent === 'string' && agent !== '') this.#lastOfAgent.set(agent, last);
			}
			// A transcript has no results: its main loop's turn ends with the response that ends it, whose text so far
			// (assistant.ts keeps it as the run's answer) is what a result would repeat.
			if (transcript?.endsTurn === true && !transcript.sidechain && line.type === 'assistant')
				readResult(stream, {type: 'result', subtype: 'success', is_error: false, session_id: line.session_id});
			// A line is an event, whatever it made (a response's line repeating what was counted makes nothing).
			if (stream.line.made === 0) stream.marker();
		} finally {
			stream.line = undefined;
		}
	}

	/**
	 * A transcript read to its end whose last turn said nothing more after a response that said something and called
	 * nothing (2.1.3x writes no stop reason): that response was its answer. One that ended on a call is left going: the
	 * session may have stopped there.
	 */
	endOfSource(source: string, out: ParsedOut): void {
		this.#settle(source, out);
	}

	/** The end of the source's last transcript (its end, or another session's lines after it): see endOfSource. */
	#settle(source: string, out: ParsedOut): void {
		const stream = this.#stream;
		const reading = stream.line;
		const session = stream.session;
		try {
			this.#settleLast(source, out);
		} finally {
			stream.line = reading;
			stream.session = session;
		}
	}

	#settleLast(source: string, out: ParsedOut): void {
		const stream = this.#stream;
		// A sub-agent whose lines ended on its answer and that nothing ended (an auto-compaction's, which no call started).
		for (const [runId, last] of this.#lastOfAgent) {
			if (last.ref.source !== source) continue;
			this.#lastOfAgent.delete(runId);
			const child = stream.children.get(runId);
			if (!last.answered || !child || child.ended) continue;
			stream.line = {ref: last.ref, wireType: 'assistant', timestamp: last.at, out, made: 1, transcript: true};
			try {
				endChild(stream, runId, 'completed', stream.state(runId).lastText, undefined, last.at);
			} finally {
				stream.line = undefined;
			}
		}

		const last = this.#lastOfSource.get(source);
		this.#lastOfSource.delete(source);
		if (!last?.answered) return;
		stream.session = last.session;
		const turn = openTurn(stream);
		if (turn === undefined || stream.state(turn).step === 0) return;
		// Its events continue the source's last line.
		stream.line = {ref: last.ref, wireType: 'assistant', timestamp: last.at, out, made: 1, transcript: true};
		try {
			endOpenTurn(stream, turn, 'prompt', last.at);
		} finally {
			stream.line = undefined;
		}
	}
}

/** Whether a line is a response that said something (not blank) and called nothing. */
function answers(line: ClaudeLine): boolean {
	if (line.type !== 'assistant') return false;
	const {content} = line.message;
	return (
		Array.isArray(content) &&
		content.some(block => block.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '') &&
		!content.some(block => block.type === 'tool_use')
	);
}

/** Whether a line is the results of calls, put to the model. */
function isResults(line: ClaudeLine): boolean {
	return line.type === 'user' && Array.isArray(line.message.content) && line.message.content.some(block => block.type === 'tool_result');
}

/** The main loop's turn going, if any. */
function openTurn(stream: ClaudeStream): string | undefined {
	const turn = stream.sessionState().turns.at(-1);
	return turn && !turn.closed ? turn.runId : undefined;
}

function dispatch(stream: ClaudeStream, line: ClaudeLine): void {
	switch (line.type) {
		case 'system':
			readSystem(stream, line);
			return;
		case 'assistant':
			readAssistant(stream, line);
			return;
		case 'user':
			readUser(stream, line);
			return;
		case 'result':
			readResult(stream, line);
			return;
		case 'stream_event':
			readStreamEvent(stream, line);
			return;
		case 'rate_limit_event': {
			const info = line.rate_limit_info;
			if (info?.status === 'rejected')
				stream.emit(runOf(stream, line), {kind: 'retry', reason: `rate limit reached${info.rateLimitType === undefined ? '' : ` (${info.rateLimitType})`}`});
			else stream.marker();
			return;
		}

		case 'tool_progress':
		case 'tool_use_summary':
		case 'auth_status':
		case 'prompt_suggestion':
		case 'conversation_reset':
		case 'keep_alive':
			stream.marker();
			return;
		default:
			assertNever(line);
	}
}
