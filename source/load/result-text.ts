import type {AgentEvent, EventRef, ToolResult} from '../model/events.js';
import {isToolActivity, type Activity, type ToolActivity, type ToolOutcome} from '../model/state.js';
import {readLine} from '../parse/normalise.js';
import {readAlone} from '../parse/stream-readers.js';

/*
 * A model that keeps only the start of tool results (`Model.textKeep`) reads the whole of one again from the
 * line of the event that carried it (`ToolOutcome.ref`), by offset for a plain file (input/raw-events.ts), when
 * the inspector shows it. The line is parsed again the way the loader parsed it, so the text is exactly what
 * the model would have kept whole.
 */

export type WholeResult = {kind: 'whole'; outcome: ToolOutcome} | {kind: 'missing'; reason: string};

/** The whole result of `activity` from `line`, the text of the line at its result's ref (undefined: not readable). */
export function wholeResultFrom(activity: ToolActivity, line: string | undefined): WholeResult {
	const kept = activity.result;
	if (!kept) return {kind: 'missing', reason: 'the call has no result'};
	if (kept.fullLength === undefined) return {kind: 'whole', outcome: kept};
	if (line === undefined) return {kind: 'missing', reason: 'the line that carried it can no longer be read'};
	const parsed = readLine({source: kept.ref.source, line: kept.ref.line, offset: kept.ref.offset, text: line});
	// A line of a dialect read per stream is read on its own: a result names its call by id on its line.
	const events = (parsed.kind === 'record' ? readAlone(parsed, undefined) : [parsed]).flatMap(item => (item.kind === 'event' ? [item.event] : []));
	const found = events.map(event => findResult(event, activity)).find(result => result !== undefined);
	// The line read must be the one read first: the same text as far as it was kept, and as long.
	if (!found || found.text.length !== kept.fullLength || !found.text.startsWith(kept.text)) {
		return {kind: 'missing', reason: 'the input changed since it was read: its line no longer holds this result'};
	}

	return {kind: 'whole', outcome: {text: found.text, error: found.error, ref: kept.ref}};
}

/**
 * `activity` as the inspector shows it: with its whole result read again when the model kept only the start.
 * When that fails (the file was truncated or rewritten since), the start is shown with a line saying so.
 */
export function withWholeResult(activity: Activity, read: (ref: EventRef) => string | undefined): Activity {
	const result = isToolActivity(activity) ? activity.result : undefined;
	if (!isToolActivity(activity) || result?.fullLength === undefined) return activity;
	const whole = wholeResultFrom(activity, read(result.ref));
	if (whole.kind === 'whole') return {...activity, result: whole.outcome};
	const note = `\n… (${result.fullLength - result.text.length} more characters not shown: ${whole.reason})`;
	return {...activity, result: {text: result.text + note, error: result.error, ref: result.ref}};
}

function findResult(event: AgentEvent, activity: ToolActivity): ToolResult | undefined {
	const results = resultsOf(event);
	return results.find(result => result.id === activity.toolCallId) ?? results.find(result => result.id === '' && result.toolName === activity.toolName);
}

function resultsOf(event: AgentEvent): readonly ToolResult[] {
	if (event.kind === 'toolResults') return event.results;
	if (event.kind === 'stepEnd' || event.kind === 'runStart') return event.checkpoint.partialResults;
	return [];
}
