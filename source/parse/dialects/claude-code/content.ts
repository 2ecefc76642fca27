import {jsonText} from '../json-values.js';
import type {ClaudeLineOf} from './schema.js';

/*
 * What Claude Code's content says, as text: a tool result's content is a string or a list of blocks (text,
 * images, …); an Agent call's structured result holds the sub-agent's answer without the CLI's notes. And
 * which live text a streamed block is, and what a retry line says.
 */

export function field(value: unknown, key: string): unknown {
	return typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
}

/** Content as text: a string as it is; blocks' text joined by line breaks, other blocks named. */
export function contentText(content: unknown): string {
	if (content === undefined || content === null) return '';
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return jsonText(content);
	const parts: string[] = [];
	for (const block of content) {
		const type = field(block, 'type');
		const text = field(block, 'text');
		if (typeof text === 'string') parts.push(text);
		else if (type === 'image') parts.push('[image]');
		else if (type === 'document') parts.push('[document]');
		else parts.push(jsonText(block));
	}

	return parts.join('\n');
}

/**
 * An Agent call's result as text: the sub-agent's answer, without the note the CLI adds for the model
 * (`agentId: … (use SendMessage …)`, `<usage>…</usage>`).
 */
export function agentResultText(content: unknown): string {
	if (!Array.isArray(content)) return contentText(content);
	const answer = content.filter(block => !(field(block, 'type') === 'text' && /^agentId: \S+/.test(String(field(block, 'text')))));
	return contentText(answer.length > 0 ? answer : content);
}

/** Whether an Agent call's result only says it was started in the background (its answer comes with its task's end). */
export function isAsyncLaunch(detail: unknown): boolean {
	return field(detail, 'isAsync') === true || field(detail, 'status') === 'async_launched';
}

/** A sub-agent's answer from its Agent call's structured result (without the CLI's agentId and usage notes). */
export function agentAnswer(detail: unknown): string | undefined {
	const content = field(detail, 'content');
	if (!Array.isArray(content) || content.length === 0) return undefined;
	const text = contentText(content);
	return text === '' ? undefined : text;
}

/** The model an Agent call's structured result says the sub-agent ran on. */
export function agentModel(detail: unknown): string | undefined {
	const model = field(detail, 'resolvedModel');
	return typeof model === 'string' && model !== '' ? model : undefined;
}

/**
 * How long a sub-agent ran, by the CLI's own count: its call's `tool_use_result.totalDurationMs` (2.0 and 2.1), the
 * only time a 2.0 stream gives a sub-agent (its lines carry none).
 */
export function agentDurationMs(detail: unknown): number | undefined {
	const duration = field(detail, 'totalDurationMs');
	return typeof duration === 'number' && Number.isFinite(duration) && duration >= 0 ? duration : undefined;
}

/**
 * What a slash command run by the CLI itself printed (`/compact`'s `Compacted`), as Claude Code puts it to the session:
 * `<local-command-stdout>…</local-command-stdout>`, `<local-command-stderr>…</local-command-stderr>` (a command that
 * failed), or both. The CLI's terminal styling in it (`\u001b[2m`) is left out. Undefined for other text.
 */
export function localCommandOutput(content: unknown): string | undefined {
	if (typeof content !== 'string' || !content.startsWith('<local-command-std')) return undefined;
	const output = /^(?:<local-command-stdout>([\s\S]*?)<\/local-command-stdout>)?(?:<local-command-stderr>([\s\S]*?)<\/local-command-stderr>)?$/.exec(content);
	if (!output) return undefined;
	const stdout = unstyled(output[1] ?? '').trimEnd();
	const stderr = unstyled(output[2] ?? '').trimEnd();
	return stderr === '' ? stdout : `${stdout}${stdout === '' ? '' : '\n'}stderr: ${stderr}`;
}

/** Text without the terminal's colour and style sequences (SGR) a command printed for the CLI's own screen. */
function unstyled(text: string): string {
	return text.replaceAll(/\u001b\[[0-9;]*m/g, '');
}

/**
 * A slash command as a session's transcript records the person typing it: a message of nothing but its tags
 * (`<command-name>/compact</command-name>`, `<command-message>…</command-message>`, `<command-args>…</command-args>`,
 * in either order): `/compact` and its arguments. A prompt that only mentions the tags is no command.
 */
export function slashCommand(content: unknown): string | undefined {
	if (typeof content !== 'string' || !/^\s*(?:<command-(name|message|args)>[^<]*<\/command-\1>\s*)+$/.test(content)) return undefined;
	const name = /<command-name>([^<]*)<\/command-name>/.exec(content)?.[1]?.trim();
	if (name === undefined || name === '') return undefined;
	const args = /<command-args>([^<]*)<\/command-args>/.exec(content)?.[1]?.trim() ?? '';
	const command = name.startsWith('/') ? name : `/${name}`;
	return args === '' ? command : `${command} ${args}`;
}

/** A string field of a tool's input. */
export function inputString(input: unknown, key: string): string | undefined {
	const value = field(input, key);
	return typeof value === 'string' ? value : undefined;
}

/** Whether a tool's input asks for it to run in the background. */
export function runsInBackground(input: unknown): boolean {
	return field(input, 'run_in_background') === true;
}

/** An error as text: a string, or a JSON value's text. */
export function errorText(value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	return typeof value === 'string' ? value : jsonText(value);
}

/** Which live text a streamed block is: text is the answer's, thinking the reasoning's; tool input is neither. */
export function streamChannel(type: string | undefined): 'reasoning' | 'result' | undefined {
	if (type === 'text' || type === 'text_delta') return 'result';
	if (type === 'thinking' || type === 'thinking_delta') return 'reasoning';
	return undefined;
}

/** What a `system/api_retry` line says: the API's error, the attempt, and when the CLI tries again. */
export function apiRetryReason(line: ClaudeLineOf<'system'>): string {
	const status = line.error_status === undefined || line.error_status === null ? '' : ` ${line.error_status}`;
	const error = errorText(line.error);
	const attempt = line.attempt === undefined ? '' : `, attempt ${line.attempt}${line.max_retries === undefined ? '' : ` of ${line.max_retries}`}`;
	const delay = line.retry_delay_ms === undefined ? '' : `, retrying in ${Math.round(line.retry_delay_ms)} ms`;
	return `API error${status}${error === undefined ? '' : ` ${error}`}${attempt}${delay}`;
}
