import {field} from './describe-activity.js';
import {foldHeadTail, foldMarker} from './fold-lines.js';
import {plural} from './format.js';
import {prettyJsonLines} from './pretty-json.js';
import {sanitizeBlock, sanitizeLine} from './sanitize.js';

/*
 * A step's conversation as a person reads it: the messages the model was given, then what the step added
 * (the model's answer and its tools' results), from the raw JSON line that holds them (the step's end, or
 * its `startGeneration` while it runs). Pure: the line is read by the caller. The text is the same for
 * `perscope --conversation` and the viewer's `c` overlay; lines new at this step are marked.
 *
 * The line comes from a program we do not control, so every value is checked for its shape and every text
 * is made inert for the terminal here.
 */

export type ConversationLine = {
	readonly text: string;
	/** Part of what is new at this step: this step's input (the first query, a person's answer), answer and tool results. */
	readonly isNew: boolean;
	readonly tone?: 'heading' | 'dim' | undefined;
};

export type ConversationHeading = {
	runId: string;
	expertKey: string;
	step: number;
	/** Where the line is, as a person finds it again: `line 135`. */
	where: string;
	/** What the model was writing when the input ended without the run's final event (query/tree.ts, `cutOffText`). */
	cutOff?: {answer: string | undefined; reasoning: string | undefined} | undefined;
};

/** The system prompt shows this many of its first lines. */
export const systemPromptLines = 6;
/** A long content shows its first and last lines. */
export const foldHead = 40;
export const foldTail = 10;
/** A longer line shows its start and end with the count of characters between. */
export const maxLineChars = 2000;
const lineHeadChars = 1500;
const lineTailChars = 300;
/** Unfolded (the viewer's `e`), every line is shown, and only a line longer than this is cut. */
export const maxUnfoldedLineChars = 20_000;

/** `unfolded`: nothing folded to its head and tail; only a line over `maxUnfoldedLineChars` is cut. */
export type ConversationOptions = {unfolded?: boolean};

/** How the contents are folded, passed down to every message. */
type Fold = {lines: boolean; lineChars: number; headChars: number; tailChars: number};

const foldedContents: Fold = {lines: true, lineChars: maxLineChars, headChars: lineHeadChars, tailChars: lineTailChars};
const unfoldedContents: Fold = {lines: false, lineChars: maxUnfoldedLineChars, headChars: maxUnfoldedLineChars - 2000, tailChars: 1000};

/** The conversation of the step whose messages `raw` holds; a line that holds none says so. */
export function conversationLines(raw: string, heading: ConversationHeading, options: ConversationOptions = {}): ConversationLine[] {
	const lines = stepLines(raw, heading, options);
	const cut = heading.cutOff;
	if (cut === undefined) return lines;
	// Whole: this is the one place a person can read all of what was streamed before the run was killed.
	lines.push(blank(), {text: '── cut off: the input ended while the model was writing (no final event) ──', isNew: true, tone: 'heading'});
	if (cut.reasoning !== undefined) lines.push({text: 'thinking (cut off):', isNew: true, tone: 'dim'}, ...textLines(cut.reasoning));
	if (cut.answer !== undefined) lines.push({text: 'answer (cut off):', isNew: true, tone: 'dim'}, ...textLines(cut.answer));
	return lines;
}

function textLines(text: string): ConversationLine[] {
	return sanitizeBlock(text)
		.split('\n')
		.map(line => ({text: `  ${line}`, isNew: true}));
}

function stepLines(raw: string, heading: ConversationHeading, options: ConversationOptions): ConversationLine[] {
	const fold = options.unfolded === true ? unfoldedContents : foldedContents;
	let event: unknown;
	try {
		event = JSON.parse(raw);
	} catch {
		return [...title(heading, undefined), dim('The line is not JSON: it holds no messages to show.')];
	}

	const type = stringField(event, 'type');
	const checkpointMessages = field(field(event, 'checkpoint'), 'messages');
	const generationMessages = field(event, 'messages');
	const out = [...title(heading, type)];
	if (Array.isArray(checkpointMessages)) {
		const step = field(event, 'step');
		const added = arrayField(step, 'newMessages');
		const input = arrayField(step, 'inputMessages');
		const addedIds = idsOf(added);
		const inputIds = idsOf(input);
		// The checkpoint ends with what the step added; ids say which, a count when messages have none.
		const given =
			addedIds.size > 0
				? checkpointMessages.filter(message => !addedIds.has(stringField(message, 'id') ?? ''))
				: checkpointMessages.slice(0, Math.max(0, checkpointMessages.length - added.length));
		const newInput = given.filter(message => inputIds.has(stringField(message, 'id') ?? '')).length;
		out.push(usageLine(field(step, 'usage')));
		out.push(
			dim(
				`given to the model: ${plural(given.length, 'message')}${newInput > 0 ? ` (${newInput} new at this step)` : ''} · added by the step: ${plural(added.length, 'message')} · lines new at this step are marked +`,
			),
		);
		out.push(blank(), section('── given to the model ──'));
		for (const [index, message] of given.entries()) out.push(...messageLines(message, index + 1, inputIds.has(stringField(message, 'id') ?? ''), fold));
		if (given.length === 0) out.push(dim('(no messages)'));
		out.push(blank(), {text: addedHeading(added), isNew: true, tone: 'heading'});
		for (const [index, message] of added.entries()) out.push(...messageLines(message, given.length + index + 1, true, fold));
		if (added.length === 0) out.push({text: '(nothing: the step ended without an answer)', isNew: true, tone: 'dim'});
		const error = field(event, 'error') ?? field(field(event, 'checkpoint'), 'error');
		if (error !== undefined)
			out.push({text: sanitizeLine(`error: ${stringField(error, 'name') ?? 'Error'}: ${stringField(error, 'message') ?? ''}`), isNew: true});
		return out;
	}

	if (Array.isArray(generationMessages)) {
		out.push(dim(`given to the model: ${plural(generationMessages.length, 'message')} · the step has not ended in the log: no answer yet`));
		out.push(blank(), section('── given to the model ──'));
		for (const [index, message] of generationMessages.entries()) out.push(...messageLines(message, index + 1, false, fold));
		return out;
	}

	return [...out, dim(`The ${type === undefined ? 'line' : sanitizeLine(type)} event holds no messages.`)];
}

function addedHeading(added: readonly unknown[]): string {
	if (added.length === 0) return '── new at this step ──';
	if (added.some(message => stringField(message, 'type') === 'expertMessage')) return '── new at this step: the answer and its tools’ results ──';
	return '── new at this step (the model was not called: tool results only) ──';
}

/** The plain text of the lines: a `+ ` gutter marks what is new at this step. */
export function conversationText(lines: readonly ConversationLine[]): string {
	return lines.map(line => `${gutter(line)}${line.text}\n`).join('');
}

export function gutter(line: ConversationLine): string {
	return line.isNew ? '+ ' : '  ';
}

function title(heading: ConversationHeading, type: string | undefined): ConversationLine[] {
	return [
		{text: sanitizeLine(`conversation of run ${heading.runId} (${heading.expertKey}) at step ${heading.step}`), isNew: false, tone: 'heading'},
		dim(sanitizeLine(`from ${heading.where}${type === undefined ? '' : ` (${type})`}`)),
	];
}

function usageLine(usage: unknown): ConversationLine {
	const count = (key: string) => {
		const value = field(usage, key);
		return typeof value === 'number' ? String(value) : '?';
	};

	if (typeof usage !== 'object' || usage === null) return dim('tokens this step: not reported');
	return dim(
		`tokens this step: ${count('inputTokens')} input · ${count('outputTokens')} output · ${count('reasoningTokens')} reasoning · ${count('cachedInputTokens')} cached input`,
	);
}

const roles: Readonly<Record<string, string>> = {
	instructionMessage: 'system',
	userMessage: 'user',
	expertMessage: 'assistant',
	toolMessage: 'tool',
};

function messageLines(message: unknown, number: number, isNew: boolean, fold: Fold): ConversationLine[] {
	const type = stringField(message, 'type') ?? '?';
	const role = roles[type] ?? sanitizeLine(type);
	const contents = field(message, 'contents');
	const body: string[] = [];
	if (typeof contents === 'string') body.push(...block(contents, '  ', fold));
	else if (Array.isArray(contents)) for (const part of contents) body.push(...partLines(part, '  ', type === 'instructionMessage', fold));
	const lines = [{text: `#${number} ${role}`, isNew, tone: 'heading' as const}, ...body.map(text => ({text, isNew}))];
	return lines;
}

function partLines(part: unknown, indent: string, isSystem: boolean, fold: Fold, isResult = false): string[] {
	const type = stringField(part, 'type');
	switch (type) {
		case 'textPart': {
			const text = stringField(part, 'text') ?? '';
			if (isSystem && fold.lines) return systemPrompt(text, indent, fold);
			const decoded = isResult ? escapedLines(text) : undefined;
			return decoded === undefined
				? block(text, indent, fold)
				: folded(
						decoded.flatMap(line => sanitizeBlock(line).split('\n')),
						indent,
						fold,
					);
		}

		case 'thinkingPart':
			return [`${indent}thinking`, ...block(stringField(part, 'thinking') ?? '', `${indent}  `, fold)];
		case 'toolCallPart':
			return [
				indent + sanitizeLine(`call ${stringField(part, 'toolName') ?? '?'} · ${stringField(part, 'toolCallId') ?? '?'}`),
				...folded(
					prettyJsonLines(field(part, 'args')).flatMap(line => sanitizeBlock(line).split('\n')),
					`${indent}  `,
					fold,
				),
			];
		case 'toolResultPart': {
			const contents = field(part, 'contents');
			const parts = Array.isArray(contents) ? contents : [];
			return [
				indent + sanitizeLine(`result of ${stringField(part, 'toolName') ?? '?'} · ${stringField(part, 'toolCallId') ?? '?'}`),
				...parts.flatMap(inner => partLines(inner, `${indent}  `, false, fold, true)),
			];
		}

		case undefined:
		default:
			return [attachment(part, type, indent)];
	}
}

/**
 * A tool result that is JSON holding text with line breaks (a file read, a write's echo: `{"content":"# Facts\n- …"}`)
 * as the lines of that text, as the tool's arguments are shown (`prettyJsonLines`), not one line of `\n` escapes.
 * Undefined for any other result, which shows as it came.
 */
function escapedLines(text: string): string[] | undefined {
	const start = text.trimStart()[0];
	if ((start !== '{' && start !== '[' && start !== '"') || !text.includes('\\n')) return undefined;
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return undefined;
	}

	// A result that is one JSON string is that string's lines; an object or array, indented with its texts as lines.
	return typeof value === 'string' ? value.replace(/\n$/, '').split('\n') : prettyJsonLines(value);
}

/** An image or file part (or one of a kind not known): what it is, not its bytes. */
function attachment(part: unknown, type: string | undefined, indent: string): string {
	const details: string[] = [];
	const mimeType = stringField(part, 'mimeType');
	if (mimeType !== undefined) details.push(mimeType);
	const url = stringField(part, 'url');
	if (url !== undefined) details.push(url);
	for (const key of ['encodedData', 'data']) {
		const data = stringField(part, key);
		if (data !== undefined) details.push(`${data.length} characters of data`);
	}

	return indent + sanitizeLine(`[${type ?? 'part'}${details.length > 0 ? `: ${details.join(', ')}` : ''}]`);
}

function systemPrompt(text: string, indent: string, fold: Fold): string[] {
	const lines = splitLines(text);
	if (lines.length <= systemPromptLines + 1) return lines.map(line => indent + cutLine(line, fold));
	return [
		...lines.slice(0, systemPromptLines).map(line => indent + cutLine(line, fold)),
		`${indent}${foldMarker(lines.length - systemPromptLines)} (the rest of the system prompt)`,
	];
}

function block(text: string, indent: string, fold: Fold): string[] {
	return folded(splitLines(text), indent, fold);
}

function folded(lines: string[], indent: string, fold: Fold): string[] {
	const cut = lines.map(line => cutLine(line, fold));
	return (fold.lines ? foldHeadTail(cut, foldHead, foldTail) : cut).map(line => indent + line);
}

function splitLines(text: string): string[] {
	return sanitizeBlock(text.replace(/\n$/, '')).split('\n');
}

/** A line of one long run of characters (minified JSON, base64) keeps its start and end. */
function cutLine(line: string, fold: Fold): string {
	if (line.length <= fold.lineChars) return line;
	// Cut between characters, never inside a surrogate pair (half a pair has no glyph).
	const head = pairSafe(line, fold.headChars);
	const tail = pairSafe(line, line.length - fold.tailChars);
	return `${line.slice(0, head)} … ${tail - head} characters left out … ${line.slice(tail)}`;
}

function pairSafe(text: string, at: number): number {
	const code = text.charCodeAt(at);
	return code >= 0xdc00 && code <= 0xdfff ? at + 1 : at;
}

function idsOf(messages: readonly unknown[]): Set<string> {
	const ids = new Set<string>();
	for (const message of messages) {
		const id = stringField(message, 'id');
		if (id !== undefined) ids.add(id);
	}

	return ids;
}

function stringField(value: unknown, key: string): string | undefined {
	const found = field(value, key);
	return typeof found === 'string' ? found : undefined;
}

function arrayField(value: unknown, key: string): unknown[] {
	const found = field(value, key);
	return Array.isArray(found) ? found : [];
}

function dim(text: string): ConversationLine {
	return {text, isNew: false, tone: 'dim'};
}

function blank(): ConversationLine {
	return {text: '', isNew: false};
}

function section(text: string): ConversationLine {
	return {text, isNew: false, tone: 'heading'};
}
