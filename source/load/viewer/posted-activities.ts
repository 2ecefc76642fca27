import {activityObject, type ActivityFields, type CommonFields} from '../../model/activity-object.js';
import {assertNever} from '../../model/assert-never.js';
import {isToolActivity, type Activity, type DelegateActivity, type ToolActivity, type ToolActivityType, type ToolOutcome} from '../../model/state.js';

/*
 * Activities as the load worker posts them (model-changes.ts): tuples of their fields, as runs and panes post.
 * A structured clone writes every field's name with every object, which for an activity of a wide job was about
 * half of what it took encoded. What an activity holds as an object of its own (a call's arguments and result,
 * who delegated it, a delegation's results) posts as it is.
 */

/** The fields every activity has (CommonFields), its event's ref spelled out. */
type PostedCommon = [
	id: string,
	expertKey: string,
	runId: string,
	previousActivityId: string | null,
	delegatedBy: CommonFields['delegatedBy'],
	reasoning: string | undefined,
	step: number | undefined,
	timestamp: number | undefined,
	source: string,
	line: number,
	offset: number,
	seq: number,
	settled: boolean,
];

/** What the kinds of activity have besides, led by the kind. */
type PostedFields =
	| [type: 'query' | 'complete', text: string]
	| [type: 'error', errorName: string, message: string]
	| [type: 'retry', reason: string]
	| [type: 'delegationComplete', results: Extract<Activity, {type: 'delegationComplete'}>['results']]
	| [
			type: 'delegate',
			toolCallId: string,
			delegateExpertKey: string,
			query: string,
			message: string | undefined,
			childRunIds: DelegateActivity['childRunIds'],
			result: DelegateActivity['result'],
	  ]
	| [
			type: ToolActivityType,
			toolCallId: string,
			skillName: string,
			toolName: string,
			args: unknown,
			message: string | undefined,
			result: ToolActivity['result'],
			// Only where the call has one (the reducer adds it to some calls only: reduce/run-start.ts).
			misroutedAnswer?: ToolActivity['misroutedAnswer'],
	  ];

export type PostedActivity = [...PostedCommon, fields: PostedFields];

function postedFields(activity: Activity): PostedFields {
	if (isToolActivity(activity)) {
		const {type, toolCallId, skillName, toolName, args, message, result} = activity;
		if (activity.misroutedAnswer === undefined) return [type, toolCallId, skillName, toolName, args, message, result];
		return [type, toolCallId, skillName, toolName, args, message, result, activity.misroutedAnswer];
	}

	switch (activity.type) {
		case 'query':
		case 'complete':
			return [activity.type, activity.text];
		case 'error':
			return ['error', activity.errorName, activity.message];
		case 'retry':
			return ['retry', activity.reason];
		case 'delegationComplete':
			return ['delegationComplete', activity.results];
		case 'delegate':
			return ['delegate', activity.toolCallId, activity.delegateExpertKey, activity.query, activity.message, activity.childRunIds, activity.result];
		default:
			return assertNever(activity, 'activity');
	}
}

export function postedActivity(activity: Activity): PostedActivity {
	const {id, expertKey, runId, previousActivityId, delegatedBy, reasoning, step, timestamp, ref, seq, settled} = activity;
	return [
		id,
		expertKey,
		runId,
		previousActivityId,
		delegatedBy,
		reasoning,
		step,
		timestamp,
		ref.source,
		ref.line,
		ref.offset,
		seq,
		settled,
		postedFields(activity),
	];
}

type PostedTool = Extract<PostedFields, {0: ToolActivityType}>;

/** Whether the posted fields are a call's: the one kind besides a delegation with more than three. */
function isPostedTool(posted: PostedFields): posted is PostedTool {
	return posted.length >= 7 && posted[0] !== 'delegate';
}

/**
 * A call's result just decoded, as the reducer writes it (reduce/tool-calls.ts, reduce/activities.ts' `keptOutcome`):
 * a literal of the same keys in the same order. The structured clone makes an object a key at a time, and the result
 * and its ref each came with a property array besides (~30 bytes a call of the 500,000 calls' shape). A result with
 * the tool's own `detail` (few) stays as it came.
 */
function outcomeOf(result: ToolOutcome | undefined): ToolOutcome | undefined {
	if (result === undefined || 'detail' in result) return result;
	const {text, error, ref, fullLength} = result;
	const copy = {source: ref.source, line: ref.line, offset: ref.offset};
	return 'fullLength' in result ? {text, error, ref: copy, fullLength} : {text, error, ref: copy};
}

function fieldsOf(posted: PostedFields): ActivityFields {
	if (isPostedTool(posted)) {
		const [type, toolCallId, skillName, toolName, args, message, result] = posted;
		return {type, toolCallId, skillName, toolName, args, message, result: outcomeOf(result)};
	}

	switch (posted[0]) {
		case 'query':
		case 'complete':
			return {type: posted[0], text: posted[1]};
		case 'error':
			return {type: 'error', errorName: posted[1], message: posted[2]};
		case 'retry':
			return {type: 'retry', reason: posted[1]};
		case 'delegationComplete':
			return {type: 'delegationComplete', results: posted[1]};
		case 'delegate': {
			const [type, toolCallId, delegateExpertKey, query, message, childRunIds, result] = posted;
			return {type, toolCallId, delegateExpertKey, query, message, childRunIds, result};
		}

		default:
			return assertNever(posted, 'posted activity');
	}
}

/**
 * A posted activity as the reducer makes it (model/activity-object.ts): its fields in the object. A call's answer
 * given to another call (`misroutedAnswer`) is added as the reducer adds it, by a spread.
 */
export function activityOfPost(posted: PostedActivity): Activity {
	const [id, expertKey, runId, previousActivityId, delegatedBy, reasoning, step, timestamp, source, line, offset, seq, settled, fields] = posted;
	const activity = activityObject(
		{id, expertKey, runId, previousActivityId, delegatedBy, reasoning, step, timestamp, ref: {source, line, offset}, seq, settled},
		fieldsOf(fields),
	);
	const misroutedAnswer = fields.length === 8 ? fields[7] : undefined;
	if (misroutedAnswer === undefined || !isToolActivity(activity)) return activity;
	return {...activity, misroutedAnswer};
}
