import {field, localCommandOutput, slashCommand} from './content.js';
import {isRecord} from '../wire-reader.js';

/*
 * The transcript Claude Code keeps of a session (`~/.claude/projects/<folder>/<session>.jsonl`, and each sub-agent's
 * `<session>/subagents/agent-<id>.jsonl`), read as the stream it is close to (reader.ts). Its lines are the
 * stream's messages under other names: the session is `sessionId`, a tool's own result `toolUseResult`. What it
 * lacks: results (an assistant line's `stop_reason: "end_turn"` ends a turn instead, reader.ts) and a sub-agent's
 * `parent_tool_use_id`: a sub-agent's lines name it by `agentId` (`isSidechain: true`), which its Agent call's
 * result names too (`toolUseResult.agentId`), or, for a sub-agent whose call's result is not in yet, by the prompt
 * it was given. Lines only a transcript has (the queue of prompts, attachments, the last prompt, a summary, the
 * files an interactive session may restore) show nothing; a command typed in its shell mode shows as `! <command>`.
 * A slash command the person typed (`<command-name>/compact</command-name>…`) is the turn's prompt, `/compact`; what
 * a command the CLI runs itself printed (`<local-command-stdout>Compacted</local-command-stdout>`) is that turn's
 * answer and its end, as the stream's `result` would be (a transcript has none); the note the CLI adds before such
 * output for the model (`<local-command-caveat>…`) shows nothing.
 */

const transcriptOnly: ReadonlySet<string> = new Set([
	'queue-operation',
	'attachment',
	'last-prompt',
	'mode',
	'permission-mode',
	'summary',
	'file-history-snapshot',
	'custom-title',
	// A hook's progress (2.1.3x: `{"type": "progress", "data": {"type": "hook_progress", …}}`).
	'progress',
]);

/** Whether a line is a session transcript's: one naming its session as `sessionId`, or a summary of one. */
export function isTranscriptLine(value: Record<string, unknown>): boolean {
	const type = value['type'];
	if (typeof type !== 'string') return false;
	if (type === 'summary') return typeof value['leafUuid'] === 'string';
	// An interactive session's record of the files it may restore names no session.
	if (type === 'file-history-snapshot') return isRecord(value['snapshot']);
	return typeof value['sessionId'] === 'string' && ('parentUuid' in value || transcriptOnly.has(type));
}

/**
 * A transcript line as reader.ts takes it: one to show nothing for, or the line as the stream prints it; `output`, what
 * a command the CLI runs itself printed (`Compacted`), which may answer its turn (reader.ts); `turn`, a line of the
 * person's that begins a turn (`prompt`: what they typed; `interrupted`: the CLI's `[Request interrupted by user]`).
 */
export type TranscriptLine =
	| {kind: 'nothing'}
	| {kind: 'line'; value: Record<string, unknown>; endsTurn: boolean; sidechain: boolean; output?: string; turn?: TurnMark};

/**
 * How a line marks the main loop's turns where responses say no stop reason: the person's `prompt` (and a manual
 * compaction's boundary, the `/compact` turn's start) ends a turn the model answered in; `interrupted` ends the turn
 * going; `ended`, the CLI's `system/turn_duration` once a turn is over.
 */
export type TurnMark = 'prompt' | 'interrupted' | 'ended';

/** What the CLI writes as the person's when they stop a turn (Esc), after the calls it cut short, if any. */
const interruption = /^\[Request interrupted by user(?: for tool use)?\]$/;

/**
 * Whether a user line is the person's: what they typed (a string, or text blocks; not calls' results), or the CLI's
 * note that they interrupted the turn. Undefined for the rest (results, notes the CLI marks `isMeta`).
 */
function personTurn(value: Record<string, unknown>, content: unknown): 'prompt' | 'interrupted' | undefined {
	if (value['isMeta'] === true || value['isCompactSummary'] === true) return undefined;
	if (typeof content === 'string') return interruption.test(content) ? 'interrupted' : 'prompt';
	// Text, with what was pasted beside it (an image, a document); never calls' results.
	if (!Array.isArray(content) || !content.some(block => field(block, 'type') === 'text') || content.some(block => field(block, 'type') === 'tool_result'))
		return undefined;
	return content.length === 1 && interruption.test(String(field(content[0], 'text'))) ? 'interrupted' : 'prompt';
}

/** A system line that marks a turn: its end (`turn_duration`), or a manual compaction's start (`compact_boundary`). */
function systemTurn(value: Record<string, unknown>): TurnMark | undefined {
	if (value['type'] !== 'system') return undefined;
	if (value['subtype'] === 'turn_duration') return 'ended';
	return value['subtype'] === 'compact_boundary' && field(value['compactMetadata'], 'trigger') === 'manual' ? 'prompt' : undefined;
}

/**
 * What a person typed in an interactive session's shell mode (`! ls`), and what it printed, as Claude Code puts them
 * to the model: `<bash-input>ls</bash-input>`, `<bash-stdout>…</bash-stdout><bash-stderr>…</bash-stderr>`. Shown as
 * the command (`! ls`) and its output, without the tags.
 */
function shellPrompt(content: unknown): string | undefined {
	if (typeof content !== 'string' || !content.startsWith('<bash-')) return undefined;
	const input = /^<bash-input>([\s\S]*)<\/bash-input>$/.exec(content);
	if (input) return `! ${input[1]}`;
	const output = /^<bash-stdout>([\s\S]*)<\/bash-stdout><bash-stderr>([\s\S]*)<\/bash-stderr>$/.exec(content);
	if (!output) return undefined;
	const [, stdout = '', stderr = ''] = output;
	return stderr === '' ? stdout : `${stdout}${stdout === '' ? '' : '\n'}stderr: ${stderr}`;
}

function hasText(content: unknown): boolean {
	return typeof content === 'string' || (Array.isArray(content) && content.some(block => field(block, 'type') === 'text'));
}

export class TranscriptLines {
	/** Each sub-agent's Agent call, by the sub-agent's `agentId`. */
	readonly #callOfAgent = new Map<string, string>();
	/** The Agent calls made and not yet tied to a sub-agent, by the prompt they gave it. */
	readonly #callOfPrompt = new Map<string, string>();

	read(value: Record<string, unknown>): TranscriptLine {
		const type = value['type'];
		if (typeof type === 'string' && transcriptOnly.has(type)) return {kind: 'nothing'};
		const content = type === 'user' ? field(value['message'], 'content') : undefined;
		// The note the CLI puts before a command's output for the model; other lines it marks `isMeta` (a scheduled
		// wake-up's prompt, a hook's message) are shown.
		if (type === 'user' && value['isMeta'] === true && typeof content === 'string' && content.startsWith('<local-command-caveat>')) return {kind: 'nothing'};
		const line: Record<string, unknown> = {...value, session_id: value['sessionId']};
		const output = localCommandOutput(content);
		const prompt = shellPrompt(content) ?? slashCommand(content) ?? output;
		if (prompt !== undefined) line['message'] = {...(value['message'] as Record<string, unknown>), content: prompt};
		if ('toolUseResult' in value) line['tool_use_result'] = value['toolUseResult'];
		this.#noteCalls(value);
		const sidechain = value['isSidechain'] === true;
		const agentId = value['agentId'];
		// A sub-agent whose call is not in what was read (its file read alone, or before its session's) is a sub-agent
		// of the main loop, by an id of its own.
		if (sidechain && typeof agentId === 'string') line['parent_tool_use_id'] = this.#callOf(agentId, value) ?? `agent-${agentId}`;

		// A response is a line per content block, each with the response's stop reason: the turn ends with its answer,
		// the text, not with the thinking before it.
		const endsTurn = type === 'assistant' && field(value['message'], 'stop_reason') === 'end_turn' && hasText(field(value['message'], 'content'));
		if (!sidechain && output !== undefined) return {kind: 'line', value: line, endsTurn, sidechain, output};
		const turn = sidechain ? undefined : type === 'user' ? personTurn(value, content) : systemTurn(value);
		return turn === undefined ? {kind: 'line', value: line, endsTurn, sidechain} : {kind: 'line', value: line, endsTurn, sidechain, turn};
	}

	/** The Agent calls an assistant line makes, and the sub-agents an Agent call's result names. */
	#noteCalls(value: Record<string, unknown>): void {
		const content = field(value['message'], 'content');
		if (!Array.isArray(content)) return;
		const agentId = field(value['toolUseResult'], 'agentId');
		for (const block of content) {
			if (!isRecord(block)) continue;
			if (block['type'] === 'tool_use' && (block['name'] === 'Agent' || block['name'] === 'Task') && typeof block['id'] === 'string') {
				const prompt = field(block['input'], 'prompt');
				if (typeof prompt === 'string') this.#callOfPrompt.set(prompt, block['id']);
			}

			if (block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string' && typeof agentId === 'string')
				this.#callOfAgent.set(agentId, block['tool_use_id']);
		}
	}

	/** The call that started sub-agent `agentId`: named by its result, else the one whose prompt its first line is. */
	#callOf(agentId: string, value: Record<string, unknown>): string | undefined {
		const known = this.#callOfAgent.get(agentId);
		if (known !== undefined) return known;
		const prompt = field(value['message'], 'content');
		const call = typeof prompt === 'string' ? this.#callOfPrompt.get(prompt) : undefined;
		if (call === undefined) return undefined;
		this.#callOfPrompt.delete(prompt as string);
		this.#callOfAgent.set(agentId, call);
		return call;
	}
}
