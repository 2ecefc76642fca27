import {assertNever} from '../../../model/assert-never.js';
import {readOrJudge} from '../../normalise.js';
import {lineOnlyEvent, type ParsedOut, type ReaderOptions, type StreamReader, type WireRecord} from '../stream-dialect.js';
import {readAssistant} from './assistant.js';
import {readClaudeLine} from './fast-reader.js';
import {readStreamEvent} from './partial-messages.js';
import {readResult} from './result.js';
import {isTranscriptLine, TranscriptLines} from './transcript.js';
import {claudeLineTypes, claudeSchemas, type ClaudeLine} from './schema.js';
import type {ClaudeFlavour} from './state.js';
import {ClaudeStream} from './stream.js';
import {runOf} from './sub-agents.js';
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
		let transcript: {endsTurn: boolean; sidechain: boolean; output?: string} | undefined;
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
