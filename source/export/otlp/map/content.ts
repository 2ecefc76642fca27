import {tooDeepToSerialise} from '../../../text/too-deep.js';
import {attr} from './attributes.js';
import type {AttributeValue, MapOptions} from './span.js';

/** Cut to the limit, saying how much was cut, so a reader of the trace knows the text is not whole. */
export function truncate(text: string, limit: number): {text: string; cut: boolean} {
	if (text.length <= limit) return {text, cut: false};
	return {text: `${text.slice(0, limit)}…[${text.length - limit} more characters]`, cut: true};
}

/** Adds a content attribute when contents are asked for; marks the span when one was cut. */
export function addContent(attributes: Record<string, AttributeValue>, options: MapOptions, name: string, text: string | undefined): void {
	if (!options.content || text === undefined) return;
	const {text: kept, cut} = truncate(text, options.contentLimit);
	attributes[name] = kept;
	if (cut) attributes[attr.contentTruncated] = true;
}

/** The conventions' message shape (`gen_ai.input.messages` / `gen_ai.output.messages`), one text part. */
export function messagesJson(role: 'user' | 'assistant', text: string, limit: number): {json: string; cut: boolean} {
	const {text: kept, cut} = truncate(text, limit);
	return {json: JSON.stringify([{role, parts: [{type: 'text', content: kept}]}]), cut};
}

export function addMessages(
	attributes: Record<string, AttributeValue>,
	options: MapOptions,
	name: string,
	role: 'user' | 'assistant',
	text: string | undefined,
): void {
	if (!options.content || text === undefined) return;
	const {json, cut} = messagesJson(role, text, options.contentLimit);
	attributes[name] = json;
	if (cut) attributes[attr.contentTruncated] = true;
}

/**
 * Tool arguments as JSON text, cut like any other content. Arguments too deep for JSON.stringify are the
 * placeholder `--json` writes for them: `String(args)` of an object is "[object Object]", which reads as if
 * the tool had been given that text.
 */
export function argumentsText(args: unknown): string {
	if (typeof args === 'string') return args;
	try {
		return JSON.stringify(args) ?? '';
	} catch {
		return tooDeepToSerialise;
	}
}
