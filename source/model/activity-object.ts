import type {EventRef} from './events.js';
import {assertNever} from './assert-never.js';
import type {Activity} from './state.js';

/** What every activity has, whatever its kind (see `ActivityCommon` in state.ts). */
export type CommonFields = {
	id: string;
	expertKey: string;
	runId: string;
	previousActivityId: string | null;
	delegatedBy: {expertKey: string; runId: string} | undefined;
	reasoning: string | undefined;
	step: number | undefined;
	timestamp: number | undefined;
	ref: EventRef;
	seq: number;
	settled: boolean;
};

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type ActivityFields = DistributiveOmit<Activity, keyof CommonFields>;

/*
 * An activity spelled out as one object literal per kind, in the order `{...common, ...fields}` gives. V8 keeps
 * the properties a literal names inside the object; those a spread adds later go to a separate property array,
 * which cost about sixty bytes more per activity (docs/performance-history.md, "Memory of the hostile shapes").
 * Copies made by spreading a whole activity (`updateActivity` in reduce/activities.ts) keep the layout.
 */
export function activityObject(c: CommonFields, fields: ActivityFields): Activity {
	const {id, expertKey, runId, previousActivityId, delegatedBy, reasoning, step, timestamp, ref, seq, settled} = c;
	if (isToolFields(fields)) {
		return {
			id,
			expertKey,
			runId,
			previousActivityId,
			delegatedBy,
			reasoning,
			step,
			timestamp,
			ref,
			seq,
			settled,
			type: fields.type,
			toolCallId: fields.toolCallId,
			skillName: fields.skillName,
			toolName: fields.toolName,
			args: fields.args,
			message: fields.message,
			result: fields.result,
		};
	}

	switch (fields.type) {
		case 'query':
		case 'complete': {
			return {id, expertKey, runId, previousActivityId, delegatedBy, reasoning, step, timestamp, ref, seq, settled, type: fields.type, text: fields.text};
		}

		case 'error': {
			return {
				id,
				expertKey,
				runId,
				previousActivityId,
				delegatedBy,
				reasoning,
				step,
				timestamp,
				ref,
				seq,
				settled,
				type: 'error',
				errorName: fields.errorName,
				message: fields.message,
			};
		}

		case 'retry': {
			return {id, expertKey, runId, previousActivityId, delegatedBy, reasoning, step, timestamp, ref, seq, settled, type: 'retry', reason: fields.reason};
		}

		case 'delegationComplete': {
			return {
				id,
				expertKey,
				runId,
				previousActivityId,
				delegatedBy,
				reasoning,
				step,
				timestamp,
				ref,
				seq,
				settled,
				type: 'delegationComplete',
				results: fields.results,
			};
		}

		case 'delegate': {
			return {
				id,
				expertKey,
				runId,
				previousActivityId,
				delegatedBy,
				reasoning,
				step,
				timestamp,
				ref,
				seq,
				settled,
				type: 'delegate',
				toolCallId: fields.toolCallId,
				delegateExpertKey: fields.delegateExpertKey,
				query: fields.query,
				message: fields.message,
				childRunIds: fields.childRunIds,
				result: fields.result,
			};
		}

		default: {
			return assertNever(fields);
		}
	}
}

type ToolFields = Extract<ActivityFields, {toolName: string}>;

function isToolFields(fields: ActivityFields): fields is ToolFields {
	return 'toolName' in fields;
}
