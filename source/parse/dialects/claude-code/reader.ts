import {assertNever} from '../../../model/assert-never.js';
import {readOrJudge} from '../../normalise.js';
import {lineOnlyEvent, type ParsedOut, type ReaderOptions, type StreamReader, type WireRecord} from '../stream-dialect.js';
import {readAssistant} from './assistant.js';
import {readClaudeLine} from './fast-reader.js';
import {readStreamEvent} from './partial-messages.js';
import {readResult} from './result.js';
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

	/** The sources whose lines were found to be a session transcript's, and said so once. */
	readonly #transcripts = new Set<string>();

	constructor(flavour: ClaudeFlavour, options: ReaderOptions = {}) {
		this.#stream = new ClaudeStream(flavour);
		this.#fast = options.fast ?? true;
	}

	/**
	 * A line of the transcript Claude Code keeps of a session (`~/.claude/projects/…/<session>.jsonl`: its lines
	 * name their session as `sessionId` and their place in the conversation as `parentUuid`) is close enough to the
	 * stream's to be read, but not all of it is: the first such line of a source says so, with its first event.
	 */
	#transcriptNote(value: Record<string, unknown>, ref: WireRecord['ref'], out: ParsedOut): ParsedOut {
		if (this.#stream.flavour.dialect !== 'claude-code' || !('parentUuid' in value) || typeof value['sessionId'] !== 'string') return out;
		if (this.#transcripts.has(ref.source)) return out;
		this.#transcripts.add(ref.source);
		const note = {line: ref.line, source: ref.source, reason: transcriptReason};
		let noted = false;
		return parsed => {
			if (noted || parsed.kind !== 'event') {
				out(parsed);
				return;
			}

			noted = true;
			out({...parsed, note});
		};
	}

	read(record: WireRecord, given: ParsedOut): void {
		const {value, ref} = record;
		const type = value['type'];
		if (typeof type !== 'string') {
			given({kind: 'diagnostic', diagnostic: {line: ref.line, source: ref.source, reason: 'not an event: no "type" field'}});
			return;
		}

		const out = this.#transcriptNote(value, ref, given);
		const stream = this.#stream;
		if (!claudeLineTypes.has(type)) {
			out(lineOnlyEvent('unknown', stream.flavour.dialect, type, ref));
			return;
		}

		const line = readOrJudge(this.#fast ? readClaudeLine(value) : undefined, () => claudeSchemas().line, value, type, ref, out);
		if (line === undefined) return;

		if (line.timestamp !== undefined) stream.lastTime = line.timestamp;
		if (line.session_id !== undefined && line.session_id !== '') stream.session = line.session_id;
		stream.line = {ref, wireType: line.type === 'system' ? `system/${line.subtype}` : line.type, timestamp: line.timestamp, out, made: 0};
		try {
			dispatch(stream, line);
			// A line is an event, whatever it made (a response's line repeating what was counted makes nothing).
			if (stream.line.made === 0) stream.marker();
		} finally {
			stream.line = undefined;
		}
	}
}

const transcriptReason =
	'a Claude Code session transcript (the file it keeps in ~/.claude/projects), not the stream `claude -p … --output-format stream-json --verbose` prints: it is read only in part (its lines carry no results, so its turns show as ended without a final event; its sub-agents are in files of their own and are not placed under their calls)';

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
