import type {ConversationMessage, ConversationPart, ConversationStep, ConversationUsage} from '../model/conversation.js';
import {assertNever} from '../model/assert-never.js';
import {foldHeadTail, foldMarker} from './fold-lines.js';
import {plural} from './format.js';
import {prettyJsonLines} from './pretty-json.js';
import {perstackConversation} from './perstack-conversation.js';
import {sanitizeBlock, sanitizeLine} from './sanitize.js';

/*
 * A step's conversation as a person reads it: the messages the model was given, then what the step added
 * (the model's answer and its tools' results), from Perstack's raw JSON line that holds them (the step's end, or
 * its `startGeneration` while it runs: perstack-conversation.ts reads it) or as another runtime's reader made it
 * (model/conversation.ts). Pure: the line is read by the caller. The text is the same for `perscope
 * --conversation` and the viewer's `c` overlay; lines new at this step are marked.
 *
 * The messages come from a program we do not control: every text is made inert for the terminal here.
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

/** The system prompt (and context attached to a prompt) shows this many of its first lines. */
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

/**
 * Where a step's conversation comes from: Perstack's raw line that holds it, or the step as its runtime's reader made
 * it from the lines that hold it (model/conversation.ts).
 */
export type ConversationSource = string | ConversationStep;

/** The conversation of the step `source` holds; a line that holds none says so. */
export function conversationLines(source: ConversationSource, heading: ConversationHeading, options: ConversationOptions = {}): ConversationLine[] {
	return [...conversationLineItems(source, heading, options)];
}

/**
 * conversationLines a message at a time, for a view that lays a long conversation out in slices (a long session's
 * step is ~150,000 lines).
 */
export function* conversationLineItems(
	source: ConversationSource,
	heading: ConversationHeading,
	options: ConversationOptions = {},
): Generator<ConversationLine> {
	yield* stepLines(source, heading, options);
	const cut = heading.cutOff;
	if (cut === undefined) return;
	// Whole: this is the one place a person can read all of what was streamed before the run was killed.
	yield blank();
	yield {text: '── cut off: the input ended while the model was writing (no final event) ──', isNew: true, tone: 'heading'};
	if (cut.reasoning !== undefined) yield* [{text: 'thinking (cut off):', isNew: true, tone: 'dim'} as const, ...textLines(cut.reasoning)];
	if (cut.answer !== undefined) yield* [{text: 'answer (cut off):', isNew: true, tone: 'dim'} as const, ...textLines(cut.answer)];
}

function textLines(text: string): ConversationLine[] {
	return sanitizeBlock(text)
		.split('\n')
		.map(line => ({text: `  ${line}`, isNew: true}));
}

function* stepLines(source: ConversationSource, heading: ConversationHeading, options: ConversationOptions): Generator<ConversationLine> {
	const fold = options.unfolded === true ? unfoldedContents : foldedContents;
	const step = typeof source === 'string' ? perstackConversation(source) : source;
	yield* title(heading, step.from);
	switch (step.kind) {
		case 'ended': {
			const {given, added} = step;
			const newInput = given.filter(message => message.isNewInput).length;
			yield usageLine(step.usage);
			yield dim(
				`given to the model: ${plural(given.length, 'message')}${newInput > 0 ? ` (${newInput} new at this step)` : ''} · added by the step: ${plural(added.length, 'message')} · lines new at this step are marked +`,
			);
			yield blank();
			yield section('── given to the model ──');
			for (const [index, message] of given.entries()) yield* messageLines(message, index + 1, message.isNewInput, fold);
			if (given.length === 0) yield dim('(no messages)');
			yield blank();
			yield {text: addedHeading(added), isNew: true, tone: 'heading'};
			for (const [index, message] of added.entries()) yield* messageLines(message, given.length + index + 1, true, fold);
			if (added.length === 0) yield {text: '(nothing: the step ended without an answer)', isNew: true, tone: 'dim'};
			if (step.error !== undefined) yield {text: sanitizeLine(`error: ${step.error}`), isNew: true};
			return;
		}

		case 'generating':
			yield dim(`given to the model: ${plural(step.given.length, 'message')} · the step has not ended in the log: no answer yet`);
			yield blank();
			yield section('── given to the model ──');
			for (const [index, message] of step.given.entries()) yield* messageLines(message, index + 1, false, fold);
			return;
		case 'none':
			yield dim(sanitizeLine(step.why));
			return;
		default:
			assertNever(step);
	}
}

function addedHeading(added: readonly ConversationMessage[]): string {
	if (added.length === 0) return '── new at this step ──';
	if (added.some(message => message.role === 'assistant')) return '── new at this step: the answer and its tools’ results ──';
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

function usageLine(usage: ConversationUsage | undefined): ConversationLine {
	if (usage === undefined) return dim('tokens this step: not reported');
	const count = (value: number | undefined) => (value === undefined ? '?' : String(value));
	return dim(
		`tokens this step: ${count(usage.inputTokens)} input · ${count(usage.outputTokens)} output · ${count(usage.reasoningTokens)} reasoning · ${count(usage.cachedInputTokens)} cached input`,
	);
}

function messageLines(message: ConversationMessage, number: number, isNew: boolean, fold: Fold): ConversationLine[] {
	const {contents} = message;
	// The system prompt, and the context a runtime attaches to a prompt (Claude Code's lists of agents and skills), show
	// their first lines: the same every step, and long.
	const isSystem = message.role === 'system' || message.role === 'context';
	const body: string[] = [];
	// (A system prompt given as one string shows as any text does, as it always has for Perstack's.)
	if (typeof contents === 'string')
		body.push(...(message.role === 'context' && fold.lines ? systemPrompt(contents, '  ', fold, message.role) : block(contents, '  ', fold)));
	else for (const part of contents) body.push(...partLines(part, '  ', isSystem, fold, false, message.role));
	return [{text: `#${number} ${sanitizeLine(message.role)}`, isNew, tone: 'heading' as const}, ...body.map(text => ({text, isNew}))];
}

function partLines(part: ConversationPart, indent: string, isSystem: boolean, fold: Fold, isResult = false, role = 'system'): string[] {
	switch (part.kind) {
		case 'text': {
			const {text} = part;
			if (isSystem && fold.lines) return systemPrompt(text, indent, fold, role);
			const decoded = isResult ? escapedLines(text) : undefined;
			return decoded === undefined
				? block(text, indent, fold)
				: folded(
						decoded.flatMap(line => sanitizeBlock(line).split('\n')),
						indent,
						fold,
					);
		}

		case 'thinking':
			return [`${indent}thinking`, ...block(part.text, `${indent}  `, fold)];
		case 'call':
			return [
				indent + sanitizeLine(`call ${part.toolName ?? '?'} · ${part.callId ?? '?'}`),
				...folded(
					prettyJsonLines(part.args).flatMap(line => sanitizeBlock(line).split('\n')),
					`${indent}  `,
					fold,
				),
			];
		case 'result':
			return [
				indent + sanitizeLine(`result of ${part.toolName ?? '?'} · ${part.callId ?? '?'}`),
				...part.parts.flatMap(inner => partLines(inner, `${indent}  `, false, fold, true)),
			];
		case 'attachment':
			return [indent + sanitizeLine(`[${part.type ?? 'part'}${part.details.length > 0 ? `: ${part.details.join(', ')}` : ''}]`)];
		default:
			return assertNever(part);
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

function systemPrompt(text: string, indent: string, fold: Fold, role: string): string[] {
	const lines = splitLines(text);
	if (lines.length <= systemPromptLines + 1) return lines.map(line => indent + cutLine(line, fold));
	return [
		...lines.slice(0, systemPromptLines).map(line => indent + cutLine(line, fold)),
		`${indent}${foldMarker(lines.length - systemPromptLines)} (the rest of ${role === 'system' ? 'the system prompt' : 'this context'})`,
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

function dim(text: string): ConversationLine {
	return {text, isNew: false, tone: 'dim'};
}

function blank(): ConversationLine {
	return {text: '', isNew: false};
}

function section(text: string): ConversationLine {
	return {text, isNew: false, tone: 'heading'};
}
