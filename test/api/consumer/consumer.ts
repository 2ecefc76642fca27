/*
 * A library user's code, type-checked against the published declarations (dist/api/*.d.ts, reached through
 * the package name) by test/api/library.test.ts, with no Node types and the strictest options a user may
 * have. The `@ts-expect-error` lines fail the check if the types were too loose to catch them.
 */
import {
	createReducer,
	isToolActivity,
	streamingText,
	toolInput,
	type Activity,
	type Diagnostic,
	type Model,
	type Reducer,
	type Run,
	type Summary,
	type ToolActivity,
} from 'perscope';

const seen: Diagnostic[] = [];
const reducer: Reducer = createReducer({maxLineBytes: 1 << 20, source: 'run.ndjson', onDiagnostic: diagnostic => seen.push(diagnostic)});
reducer.push('{"type":"startRun"}\n');
reducer.push(Uint8Array.from('not json', character => character.charCodeAt(0)));
reducer.pushChunk('{"type":');
reducer.end({exitCode: 1, lastStderr: 'boom'});
// @ts-expect-error: a line is text or bytes
reducer.push(42);
// @ts-expect-error: there is no such option
createReducer({maxLineByte: 10});

const model: Model = reducer.model;
// @ts-expect-error: the model is the reducer's; a user reads it
model.activities.push(model.activities[0]);

/** Every activity type is handled: a type added to the union fails this switch until it is. */
export function describe(activity: Activity): string {
	if (isToolActivity(activity)) return `${activity.skillName}/${activity.toolName}: ${activity.result?.text ?? 'running'}`;
	switch (activity.type) {
		case 'query':
		case 'complete':
			return activity.text;
		case 'error':
			return `${activity.errorName}: ${activity.message}`;
		case 'retry':
			return activity.reason;
		case 'delegate':
			return `${activity.delegateExpertKey}: ${activity.query} (${activity.childRunIds.length} runs)`;
		case 'delegationComplete':
			return activity.results.map(result => result.text).join('\n');
		default: {
			const unhandled: never = activity;
			return unhandled;
		}
	}
}

export function live(run: Run): string {
	const text = streamingText(run);
	return text ? `${run.expertKey} step ${text.step}: ${text.reasoning}${text.result}` : `${run.expertKey}: ${run.status}`;
}

/** Tool arguments typed per tool: `exec` has a command, `editTextFile` a path and its texts. */
export function what(activity: ToolActivity): string {
	const input = toolInput(activity);
	if (input.tool === 'exec') return [input.command ?? '?', ...input.args].join(' ');
	if (input.tool === 'readTextFile') return `${input.path ?? '?'}:${input.from ?? 1}`;
	if (input.tool === 'moveFile') return `${input.source} → ${input.destination}`;
	if (input.tool === 'generalTool' || input.tool === 'interactiveTool') return `${input.skill}/${input.name}`;
	// @ts-expect-error: a field may be missing from what the model wrote
	if (input.tool === 'editTextFile') return input.path.length + input.oldText + input.newText;
	// @ts-expect-error: exec's command is only on exec
	return input.command;
}

const summary: Summary = reducer.summary();
const tokens: number = summary.jobs.reduce((sum, job) => sum + job.usage.totalTokens, 0);
const ended: string | undefined = summary.jobs[0]?.runs[0]?.endedWhileWaiting?.reason;
const json: string = reducer.summaryJson();
export const report = {tokens, ended, json, diagnostics: seen.length + model.diagnosticCount, runs: [...model.runs.values()].map(live)};
