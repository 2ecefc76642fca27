/*
 * Tool calls and their results: each call becomes an activity of its run's pane (a delegation, an interactive
 * question, a base tool or another), and each result goes to the call it answers.
 */
import {type ToolCall} from '../events.js';
import {
	baseToolTypes,
	isToolActivity,
	releasedActivity,
	type BaseToolType,
	type DelegateActivity,
	type Model,
	type Run,
	type ToolActivity,
	type ToolActivityType,
	type ToolOutcome,
} from '../state.js';
import {type CommonFields} from '../activity-object.js';
import {addActivity, bumpPane, callIndex, keptOutcome, releaseCall, replaceActivity, reviveActivity, updateActivity, type EventOf} from './activities.js';
import {adoptOrphans} from './runs.js';
import {holdStepUsage} from './steps.js';
import {streamOf} from './streams.js';

const baseSkill = '@perstack/base';
const baseTools: ReadonlySet<string> = new Set(baseToolTypes);

function classify(call: ToolCall): ToolActivityType {
	if (call.skillName === baseSkill && baseTools.has(call.toolName)) {
		for (const type of baseToolTypes) if (type === call.toolName) return type satisfies BaseToolType;
	}

	return 'generalTool';
}

/** The arguments that name whom a delegation calls, in the order they are looked for. */
const targetKeys: readonly string[] = ['agentId', 'agent', 'subagent_type', 'expert'];
/** What a delegation asks, in the order looked for (tools named after an agent take a `request`, an `objective`, a `question`). */
const queryKeys: readonly string[] = ['query', 'prompt', 'description', 'task', 'message', 'request', 'objective', 'question'];
const delegatePrefix = 'delegate/';

function delegateTarget(call: ToolCall): string {
	const args = call.args;
	if (typeof args === 'object' && args !== null) {
		for (const key of targetKeys) {
			const value: unknown = Reflect.get(args, key);
			if (typeof value === 'string' && value !== '') return value;
		}
	}

	if (call.toolName === 'task') return '';
	// Perstack names a delegation's skill after the expert's whole key (`@scope/writer@1.2.0`) and its tool after
	// the last path segment (`writer`): the skill is the name. It spells the skill `delegate/child-expert` too.
	const skill = call.skillName.startsWith(delegatePrefix) ? call.skillName.slice(delegatePrefix.length) : call.skillName;
	return skill || call.toolName;
}

function delegateQuery(args: unknown): string {
	if (typeof args === 'string') return args;
	if (typeof args !== 'object' || args === null) return '';
	for (const key of queryKeys) {
		const value: unknown = Reflect.get(args, key);
		if (typeof value === 'string') return value;
	}

	return '';
}

export function onToolCalls(model: Model, run: Run, event: EventOf<'toolCalls'>): void {
	const step = event.step ?? run.currentStep;
	if (event.generationUsage !== undefined && step !== undefined) holdStepUsage(model, run, step, event.generationUsage);
	if (event.dialect === 'perstack' && event.thinking !== undefined && step !== undefined) streamOf(run, step).callReasoning = event.thinking;
	let first = true;
	for (const call of event.calls) {
		const id = call.id === '' ? `${run.runId}:call:${run.activityCount}` : call.id;
		const message = first ? event.text : undefined;
		first = false;
		const index = callIndex(model, run, id);
		const existing = index === undefined ? undefined : model.activities[index];
		const reasoning = event.thinking;

		if (event.as === 'delegate') {
			const delegate: Omit<DelegateActivity, keyof CommonFields> = {
				type: 'delegate',
				toolCallId: id,
				delegateExpertKey: delegateTarget(call),
				query: delegateQuery(call.args),
				message: existing && 'message' in existing ? existing.message : message,
				childRunIds: [],
				result: undefined,
			};
			const settled = delegate.delegateExpertKey !== '';
			if (existing === releasedActivity && index !== undefined) reviveActivity(model, run, event, index, delegate, settled, id, reasoning);
			else if (existing && index !== undefined) replaceActivity(model, index, existing, delegate, settled);
			else addActivity(model, run, event, delegate, settled, id, reasoning);
			adoptOrphans(model, run, id);
			continue;
		}

		const type: ToolActivityType = event.as === 'interactive' ? 'interactiveTool' : classify(call);
		if (existing && index !== undefined) {
			// callInteractiveTool after callTools for the same call: the same activity, now known to be interactive.
			// A call let go had its result already: as a figure it is the same call either way.
			if (existing !== releasedActivity && existing.type !== type && event.as === 'interactive')
				replaceActivity(model, index, existing, toolFields(model, type, id, call, message), true);
			continue;
		}

		addActivity(model, run, event, toolFields(model, type, id, call, message), event.as === 'interactive', id, reasoning);
	}
}

function toolFields(model: Model, type: ToolActivityType, id: string, call: ToolCall, message: string | undefined): Omit<ToolActivity, keyof CommonFields> {
	// The base skill's name and tools' names as the constants, not as the fresh copies each parsed line brings.
	const base = call.skillName === baseSkill;
	const toolName = base && type === call.toolName ? type : call.toolName;
	return {
		type,
		toolCallId: id,
		skillName: base ? baseSkill : call.skillName,
		toolName,
		args: model.textKeep?.limit === 0 ? undefined : call.args,
		message,
		result: undefined,
	};
}

export function onToolResults(model: Model, run: Run, event: EventOf<'toolResults'>): void {
	const step = event.step ?? run.currentStep;
	if (event.wireType === 'attemptCompletion' && step !== undefined) streamOf(run, step).resultGeneration = true;
	for (const result of event.results) {
		const index = result.id === '' ? oldestOpenCall(model, run, result.toolName) : callIndex(model, run, result.id);
		const activity = index === undefined ? undefined : model.activities[index];
		const outcome: ToolOutcome = {
			text: result.text,
			error: result.error,
			ref: event.ref,
			...(result.detail === undefined || model.figuresOnly ? {} : {detail: result.detail}),
		};
		if (activity === releasedActivity) {
			// Another result for a call let go: the call keeps its place, and nothing of it is kept to change.
			bumpPane(model, run);
			continue;
		}

		if (activity && (isToolActivity(activity) || activity.type === 'delegate')) {
			releaseCall(
				model,
				updateActivity(model, activity, {result: activity.type === 'delegate' ? outcome : keptOutcome(model, activity, outcome), settled: true}),
			);
			bumpPane(model, run);
			continue;
		}

		// A result whose call we never saw (a log that starts mid-step): show it on its own.
		const id = result.id === '' ? `${run.runId}:result:${run.activityCount}` : result.id;
		const call: ToolCall = {id, skillName: result.skillName, toolName: result.toolName, args: undefined};
		const created = addActivity(model, run, event, toolFields(model, classify(call), id, call, undefined), true, id);
		if (isToolActivity(created)) releaseCall(model, updateActivity(model, created, {result: keptOutcome(model, created, outcome)}));
	}
}

/** The strategy daemon pairs tool results with calls by tool name only: the oldest open call of that name. */
function oldestOpenCall(model: Model, run: Run, toolName: string): number | undefined {
	for (const index of run.unsettled) {
		const activity = model.activities[index];
		if (activity && activity !== releasedActivity && isToolActivity(activity) && activity.toolName === toolName && !activity.result) return index;
	}

	return undefined;
}
