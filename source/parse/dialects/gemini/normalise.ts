import type {AgentEvent, CheckpointInfo, EventRef, ParsedLine, ToolCall, Usage} from '../../../model/events.js';
import {assertNever} from '../../../model/assert-never.js';
import {lineOnlyEvent, type ParsedOut, type ReaderOptions, type StreamReader, type WireRecord} from '../stream-dialect.js';
import {copyHead, outLineEvents, runEventHead, stepCheckpoint, withHead, withSharedHead, type EventHead} from '../event-head.js';
import {readOrJudge, untypedLine} from '../../normalise.js';
import {readGeminiEvent, readGeminiJsonOutput} from './fast-reader.js';
import {agentName, agentTools, promptOf} from './agents.js';
import {isChatHeader, isChatMessage, isChatRecordWithoutType} from './chat-file.js';
import {ChatReader} from './chat-reader.js';
import {isGeminiJsonOutput} from './json-output.js';
import {geminiEventTypes, geminiSchemas, type GeminiEvent, type GeminiJsonOutput, type GeminiStats} from './schema.js';

/*
 * Gemini CLI streams (`gemini -p … --output-format stream-json`), line by line, into the one internal event shape.
 * One reader reads every Gemini stream of a load, and keeps:
 *
 * - each stream's run: each `init` starts one, in the job of its session; a session resumed later (`--resume`)
 *   starts the job's next run, `<session>#2`, … A stream that starts after its `init` goes on with the run a
 *   stream left open (the next file of a log split over several), or, when none is, gets a run named after where
 *   it starts, `gemini:line-<n>` (not after its source: a file and a pipe of the same bytes give the same runs);
 * - the step: a generation of the model is its text and the tool calls after it; the first text or call after
 *   tool results starts the next step (the CLI writes all of a turn's calls before any result);
 * - the tool calls still open, by `tool_id`, and the sub-agent each `invoke_agent` call started: nothing from
 *   inside a sub-agent is streamed, so its run has its query and its end (the call's result) only;
 * - the current generation's text: the message of the first call after it, or the run's answer.
 *
 * Usage is known only from `result.stats`, the run's (the process's) totals, sub-agents included.
 */

type RunState = {
	jobId: string;
	runId: string;
	step: number | undefined;
	/** Whether the model is writing (text or calls) rather than the tools answering. */
	generating: boolean;
	text: string[];
	/** Open calls by tool id: the sub-agent run an agent call started, or ''. */
	open: Map<string, string>;
	agents: number;
	model: string | undefined;
};

export class GeminiReader implements StreamReader {
	readonly #runsOfSession = new Map<string, number>();
	/** `--output-format json` objects read that named no session. */
	#outputsWithoutSession = 0;
	/** Each stream's current run, by source. */
	readonly #runs = new Map<string, RunState>();
	/** The run started last that has not ended: where a stream that begins after its `init` goes on. */
	#open: RunState | undefined;
	/** Whether lines are read by the fast reader (fast-reader.ts) rather than the schema, the reference (PERSCOPE_FAST=0). */
	readonly #fast: boolean;
	/** The chats Gemini CLI keeps of sessions, given as inputs (chat-reader.ts): the sources told from a chat's header. */
	readonly #chats = new ChatReader();

	constructor(options: ReaderOptions = {}) {
		this.#fast = options.fast ?? true;
	}

	/** Whether a line is surely Gemini CLI's: a type of its own with the fields only it writes. */
	static recognises(value: Record<string, unknown>): boolean {
		if (isGeminiJsonOutput(value) || isChatRecordWithoutType(value)) return true;
		switch (value['type']) {
			case 'init':
				return typeof value['session_id'] === 'string';
			case 'message':
				return typeof value['role'] === 'string' && typeof value['content'] === 'string';
			case 'tool_use':
			case 'tool_result':
				return typeof value['tool_id'] === 'string';
			case 'result':
				return typeof value['status'] === 'string' && !('subtype' in value);
			case 'error':
				return typeof value['severity'] === 'string';
			default:
				return false;
		}
	}

	read(record: WireRecord, out: ParsedOut): void {
		const {value, ref} = record;
		// A chat's records, from its header on; any other line of its source is read as any line of a stream.
		if (isChatHeader(value) || (this.#chats.has(ref.source) && (isChatRecordWithoutType(value) || isChatMessage(value)))) {
			this.#chats.read(value, ref, out);
			return;
		}

		// A chat's `$set` or `$rewindTo` in a stream that is no chat (recognises took it, as the chat's own): a bad line.
		if (isChatRecordWithoutType(value)) {
			out(untypedLine(record));
			return;
		}

		const type = value['type'];
		if (type === undefined && isGeminiJsonOutput(value)) {
			const output = readOrJudge(this.#fast ? readGeminiJsonOutput(value) : undefined, () => geminiSchemas().jsonOutput, value, 'json output', ref, out);
			if (output !== undefined) outLineEvents(this.#jsonOutput(output, ref), out);
			return;
		}

		if (typeof type !== 'string' || !geminiEventTypes.has(type)) {
			out(this.#unknown(typeof type === 'string' ? type : '', ref));
			return;
		}

		const event = readOrJudge(this.#fast ? readGeminiEvent(value) : undefined, () => geminiSchemas().event, value, type, ref, out);
		if (event === undefined) return;

		// The model counts a line as one event: the line's further events say they continue it (stream-dialect.ts).
		const events = this.#events(event, ref);
		outLineEvents(events, out);
		if (events.length === 0) out(this.#unknown(type, ref, 'marker'));
	}

	/** A chat read as an input ends: its last response was its run's answer (chat-reader.ts). */
	endOfSource(source: string, out: ParsedOut): void {
		this.#chats.endOfSource(source, out);
	}

	#events(event: GeminiEvent, ref: EventRef): AgentEvent[] {
		const at = event.timestamp;
		switch (event.type) {
			case 'init': {
				const count = (this.#runsOfSession.get(event.session_id) ?? 0) + 1;
				this.#runsOfSession.set(event.session_id, count);
				const run = newRun(event.session_id, count === 1 ? event.session_id : `${event.session_id}#${count}`, event.model);
				this.#runs.set(ref.source, run);
				this.#open = run;
				const head = this.#head(run, event.type, ref, at);
				return [
					withSharedHead(head, {kind: 'runtimeInit', model: event.model}),
					withSharedHead(head, {kind: 'childRunStart', childRunId: run.runId, childExpertKey: 'gemini', query: undefined, viaToolName: undefined}),
				];
			}

			case 'message': {
				const out: AgentEvent[] = [];
				const run = this.#current(ref, at, out);
				// The prompt, echoed (with what came on stdin appended).
				if (event.role === 'user') {
					out.push(withHead(this.#head(run, event.type, ref, at), {kind: 'query', text: event.content}));
					return out;
				}

				this.#generate(run, ref, at, out);
				run.text.push(event.content);
				out.push(withHead(this.#head(run, event.type, ref, at), {kind: 'stream', channel: 'result', phase: 'delta', text: event.content}));
				return out;
			}

			case 'tool_use': {
				const out: AgentEvent[] = [];
				const run = this.#current(ref, at, out);
				this.#generate(run, ref, at, out);
				const head = this.#head(run, event.type, ref, at);
				const text = run.text.length > 0 ? run.text.join('') : undefined;
				run.text = [];
				const agent = agentTools.has(event.tool_name) ? agentName(event.tool_name, event.parameters) : undefined;
				// A sub-agent's call names the agent as its skill: that is whom it delegates to.
				const call: ToolCall = {id: event.tool_id, skillName: agent ?? '', toolName: event.tool_name, args: event.parameters};
				const calls: AgentEvent = withSharedHead(head, {
					kind: 'toolCalls',
					as: agent === undefined ? 'tool' : 'delegate',
					calls: [call],
					text,
					thinking: undefined,
				});
				out.push(calls);
				if (agent === undefined) {
					run.open.set(event.tool_id, '');
					return out;
				}

				run.agents++;
				const child = `${run.runId}/${agent}#${run.agents}`;
				run.open.set(event.tool_id, child);
				const query = promptOf(event.parameters);
				out.push(
					withHead(head, {
						kind: 'childRunStart',
						childRunId: child,
						childExpertKey: agent,
						query,
						viaToolName: event.tool_name,
						viaToolCallId: event.tool_id,
					}),
				);
				return out;
			}

			case 'tool_result': {
				const out: AgentEvent[] = [];
				const run = this.#current(ref, at, out);
				run.generating = false;
				const head = this.#head(run, event.type, ref, at);
				const failed = event.status !== 'success';
				const text = event.output ?? (failed ? (event.error?.message ?? '') : '');
				const error = failed ? event.error?.message || event.output || event.status : undefined;
				const child = run.open.get(event.tool_id);
				run.open.delete(event.tool_id);
				// The sub-agent's end is its call's result: nothing else of it is streamed.
				if (child)
					out.push(
						withSharedHead(head, {
							runId: child,
							step: undefined,
							kind: 'runEnd',
							status: failed ? 'stoppedByError' : 'completed',
							text,
							message: error,
							usage: undefined,
						}),
					);
				out.push(withHead(head, {kind: 'toolResults', results: [{id: event.tool_id, skillName: '', toolName: '', text, error}]}));
				return out;
			}

			case 'error': {
				const out: AgentEvent[] = [];
				const run = this.#current(ref, at, out);
				// A warning (a loop detected, a turn limit, a blocked agent) and an error the run survives alike.
				out.push(
					withHead(this.#head(run, event.type, ref, at), {
						kind: 'runError',
						name: event.severity ?? 'error',
						message: event.message,
						warning: event.severity !== 'error',
					}),
				);
				return out;
			}

			case 'result': {
				const out: AgentEvent[] = [];
				const run = this.#current(ref, at, out);
				const head = this.#head(run, event.type, ref, at);
				const model = mainModel(event.stats);
				if (model !== undefined && model !== run.model) out.push(withSharedHead(head, {kind: 'runtimeInit', model}));
				// Before the run's end, so that whatever is written when it ends has its figures.
				out.push(...this.#usage(run, head, event.stats, model));
				const text = run.text.join('');
				run.text = [];
				if (event.status === 'success') {
					out.push(this.#stepEnd(run, head, 'complete', 'completed', text));
				} else {
					const message = event.error?.message ?? event.status;
					out.push(withSharedHead(head, {kind: 'runError', name: event.error?.type ?? 'error', message}));
					out.push(withSharedHead(head, {kind: 'runEnd', status: 'stoppedByError', text: undefined, message, usage: undefined}));
				}

				this.#runs.delete(ref.source);
				if (this.#open === run) this.#open = undefined;
				return out;
			}

			default:
				return assertNever(event);
		}
	}

	/**
	 * `--output-format json`: the whole run in one object at its end, with no time. A run of the session (named as an
	 * `init` names it), one step, its usage per model, and its answer or its error. What the run did (its tool calls,
	 * a sub-agent's work, its model's many responses) is counted in `stats` only.
	 */
	#jsonOutput(output: GeminiJsonOutput, ref: EventRef): AgentEvent[] {
		// Before 0.21 the output names no session: each is a run of its own, numbered in the order they came.
		const session = output.session_id ?? `gemini:output-${++this.#outputsWithoutSession}`;
		const count = (this.#runsOfSession.get(session) ?? 0) + 1;
		this.#runsOfSession.set(session, count);
		const stats = streamStats(output.stats);
		const model = mainModel(stats);
		const run = newRun(session, count === 1 ? session : `${session}#${count}`, model);
		const head = this.#head(run, 'json output', ref, undefined);
		const out: AgentEvent[] = [
			withSharedHead(head, {kind: 'runtimeInit', model}),
			withSharedHead(head, {kind: 'childRunStart', childRunId: run.runId, childExpertKey: 'gemini', query: undefined, viaToolName: undefined}),
		];
		run.step = 1;
		// Not `messagesInLines`: the session's chat holds the run's many responses, of which this one step says nothing.
		out.push(withSharedHead(head, {step: 1, kind: 'stepStart', counted: true}));
		out.push(...this.#usage(run, {...head, step: 1}, stats, model));
		if (output.error === undefined) {
			out.push(this.#stepEnd(run, {...head, step: 1}, 'complete', 'completed', output.response));
			return out;
		}

		const message = output.error.message;
		out.push(withSharedHead(head, {step: 1, kind: 'runError', name: output.error.type ?? 'error', message}));
		out.push(withSharedHead(head, {step: 1, kind: 'runEnd', status: 'stoppedByError', text: undefined, message, usage: undefined}));
		return out;
	}

	/**
	 * The run's usage from `result.stats`. When the CLI called other models besides the one that did the work (its
	 * router picks the model of each turn with a small one), each other model's share is a run of its own under the
	 * session's run, with that model, so that each is priced at its own rate; the run keeps the main model's.
	 */
	#usage(run: RunState, head: EventHead, stats: GeminiStats | undefined, main: string | undefined): AgentEvent[] {
		if (!stats) return [];
		const models = Object.entries(stats.models ?? {});
		if (models.length < 2 || main === undefined) return [withSharedHead(head, {kind: 'usage', usage: usageOf(stats)})];
		const out: AgentEvent[] = [];
		// When another model ran is not said (a router's call comes before the turn's first line, and its stats only
		// with the result): its run has no time, rather than the result's, which made it seem to take no time at all.
		const untimed = copyHead(head);
		untimed.timestamp = undefined;
		for (const [model, tokens] of models) {
			if (model === main) {
				out.push(withSharedHead(head, {kind: 'usage', usage: usageOf(tokens)}));
				continue;
			}

			const child = copyHead(untimed);
			child.runId = `${run.runId}/${model}`;
			child.step = 1;
			const checkpoint = stepCheckpoint(child.runId, 'completed', 1);
			out.push(
				withSharedHead(untimed, {kind: 'childRunStart', childRunId: child.runId, childExpertKey: model, query: undefined, viaToolName: undefined}),
				// Not the job's model: only this run's.
				withSharedHead(child, {jobId: '', kind: 'runtimeInit', model}),
				withSharedHead(child, {
					kind: 'stepEnd',
					ending: 'continue',
					checkpoint,
					stepUsage: usageOf(tokens),
					startedAt: undefined,
					finishedAt: undefined,
					text: undefined,
					error: undefined,
				}),
			);
		}

		return out;
	}

	/** The start of the model's next generation, when this text or call is the first of one: a step, counted as it starts. */
	#generate(run: RunState, ref: EventRef, at: number | undefined, out: AgentEvent[]): void {
		if (run.generating) return;
		run.generating = true;
		run.step = (run.step ?? 0) + 1;
		// What the model was given is not in the stream; the session's chat keeps it (chat.ts), found from this line.
		out.push(withHead(this.#head(run, 'message', ref, at), {kind: 'stepStart', counted: true, messagesInLines: true}));
	}

	/**
	 * The run of the stream's current session. A stream that begins after its `init` goes on with the run the stream
	 * before it left open (the next file of a split log), else starts one here.
	 */
	#current(ref: EventRef, at: number | undefined, out: AgentEvent[]): RunState {
		const current = this.#runs.get(ref.source);
		if (current) return current;
		const open = this.#open;
		if (open) {
			this.#runs.set(ref.source, open);
			return open;
		}

		const name = `gemini:line-${ref.line}`;
		const run = newRun(name, name, undefined);
		this.#runs.set(ref.source, run);
		this.#open = run;
		out.push(
			withHead(this.#head(run, 'init', ref, at), {
				kind: 'childRunStart',
				childRunId: name,
				childExpertKey: 'gemini',
				query: undefined,
				viaToolName: undefined,
			}),
		);
		return run;
	}

	#stepEnd(run: RunState, head: EventHead, ending: 'complete', status: CheckpointInfo['status'], text: string | undefined): AgentEvent {
		const checkpoint = stepCheckpoint(run.runId, status, run.step);
		return withSharedHead(head, {
			step: run.step,
			kind: 'stepEnd',
			ending,
			checkpoint,
			stepUsage: undefined,
			startedAt: undefined,
			finishedAt: head.timestamp,
			text,
			error: undefined,
		});
	}

	#head(run: RunState, wireType: string, ref: EventRef, at: number | undefined): EventHead {
		return runEventHead('gemini', run, wireType, ref, at);
	}

	/** A line of a type this version does not know; or, as a `marker`, a known one that made nothing to show. */
	#unknown(wireType: string, ref: EventRef, kind: 'unknown' | 'marker' = 'unknown'): ParsedLine {
		return lineOnlyEvent(kind, 'gemini', wireType, ref, this.#runs.get(ref.source));
	}
}

function newRun(jobId: string, runId: string, model: string | undefined): RunState {
	return {jobId, runId, step: undefined, generating: false, text: [], open: new Map(), agents: 0, model};
}

/**
 * The run's usage from its totals. Gemini counts cache reads inside `input_tokens` (`input` is the rest), and the
 * thinking tokens only in `total_tokens`: what the total holds beyond input and output is reasoning, which Google
 * bills as output (the price table's rule for the provider).
 */
function usageOf(stats: Partial<Record<'input_tokens' | 'output_tokens' | 'total_tokens' | 'cached', number | undefined>>): Usage {
	const inputTokens = stats.input_tokens ?? 0;
	const outputTokens = stats.output_tokens ?? 0;
	const totalTokens = stats.total_tokens ?? inputTokens + outputTokens;
	return {inputTokens, outputTokens, reasoningTokens: Math.max(0, totalTokens - inputTokens - outputTokens), totalTokens, cachedInputTokens: stats.cached ?? 0};
}

/**
 * `--output-format json`'s per-model metrics as the stream's `result.stats` gives them (gemini-cli's own conversion:
 * `prompt` is the input, cache reads included; `candidates` the output), so both read alike.
 */
function streamStats(stats: GeminiJsonOutput['stats']): GeminiStats | undefined {
	const models = Object.entries(stats?.models ?? {});
	if (models.length === 0) return undefined;
	const byModel: NonNullable<GeminiStats['models']> = {};
	const sum = {total_tokens: 0, input_tokens: 0, output_tokens: 0, cached: 0, input: 0};
	for (const [model, {tokens}] of models) {
		const counts = {
			total_tokens: tokens?.total ?? 0,
			input_tokens: tokens?.prompt ?? 0,
			output_tokens: tokens?.candidates ?? 0,
			cached: tokens?.cached ?? 0,
			input: tokens?.input ?? 0,
		};
		byModel[model] = counts;
		for (const key of Object.keys(sum) as Array<keyof typeof sum>) sum[key] += counts[key];
	}

	return {...sum, duration_ms: undefined, tool_calls: undefined, models: byModel};
}

/** The model that did the run's work: the one of `stats.models` that used the most tokens (a router uses few). */
function mainModel(stats: GeminiStats | undefined): string | undefined {
	let best: [string, number] | undefined;
	for (const [model, usage] of Object.entries(stats?.models ?? {})) {
		const total = usage.total_tokens ?? 0;
		if (best === undefined || total > best[1]) best = [model, total];
	}

	return best?.[0];
}
