import type {Activity, Model} from '../model/state.js';
import {isToolActivity} from '../model/state.js';
import {depthOf} from '../query/tree.js';
import {iconOf, safeJson} from '../present/describe-activity.js';
import {sanitizeBlock, sanitizeLine} from '../present/sanitize.js';
import {wrapToWidth} from '../present/wrap.js';
import {interactiveStop, stepCheckpoint} from '../query/resume-command.js';
import {statusLook} from '../present/status.js';
import {assertNever} from '../model/assert-never.js';

export type InspectorLine = {text: string; tone?: 'heading' | 'label' | 'error' | 'dim'};

/** A pretty-printed raw event longer than this is cut: the inspector is for reading, not for a 1 MB dump. */
const maxRawLines = 2000;

/**
 * Everything about one activity, as lines ready to show: what it did, its full arguments and result,
 * the reasoning behind it, its run's checkpoint, and the raw event it came from.
 */
export function inspectorLines(model: Model, activity: Activity, rawEvent: string | undefined, width: number): InspectorLine[] {
	const lines: InspectorLine[] = [];
	const textWidth = Math.max(10, width - 2);
	const heading = (text: string) => {
		lines.push({text: ''});
		lines.push({text: sanitizeLine(text), tone: 'heading'});
	};

	const field = (label: string, value: string | number | undefined | null) => {
		if (value === undefined || value === null || value === '') return;
		// Labels can be event text too (a child run's id): sanitised like the value.
		for (const [n, line] of wrapToWidth(`${sanitizeLine(label)}: ${sanitizeLine(String(value))}`, textWidth).entries()) lines.push({text: n === 0 ? line : `  ${line}`, tone: n === 0 ? 'label' : undefined});
	};

	const block = (text: string, tone?: InspectorLine['tone']) => {
		for (const line of wrapToWidth(sanitizeBlock(text), textWidth)) lines.push(tone === undefined ? {text: line} : {text: line, tone});
	};

	lines.push({text: sanitizeLine(`${iconOf(activity.type)} ${activity.type} · ${activity.expertKey}${activity.step === undefined ? '' : ` · step ${activity.step}`}`), tone: 'heading'});
	field('activity', activity.id);
	field('run', activity.runId);
	field('previous activity', activity.previousActivityId ?? '(first in run)');
	if (activity.delegatedBy) field('delegated by', `${activity.delegatedBy.expertKey} (${activity.delegatedBy.runId})`);
	if (activity.timestamp !== undefined) field('time', new Date(activity.timestamp).toISOString());

	if (isToolActivity(activity)) {
		field('tool call', activity.toolCallId);
		field('tool', `${activity.skillName === '' ? '' : `${activity.skillName} / `}${activity.toolName}`);
		if (activity.message) {
			heading('Message');
			block(activity.message);
		}

		heading('Arguments');
		block(activity.args === undefined ? '(none)' : safeJson(activity.args, 2));
		heading(activity.result?.error === undefined ? 'Result' : `Result — error: ${activity.result.error}`);
		if (activity.result) block(prettyIfJson(activity.result.text), activity.result.error === undefined ? undefined : 'error');
		else lines.push({text: '(waiting for the result)', tone: 'dim'});
	} else {
		switch (activity.type) {
			case 'query':
			case 'complete':
				heading(activity.type === 'query' ? 'Query' : 'Result');
				block(activity.text === '' ? '(empty)' : activity.text);
				break;
			case 'error':
				heading('Error');
				block(`${activity.errorName}: ${activity.message}`, 'error');
				break;
			case 'retry':
				heading('Retry reason');
				block(activity.reason === '' ? '(none given)' : activity.reason);
				break;
			case 'delegationComplete':
				heading('Delegates returned');
				for (const result of activity.results) {
					field('expert', result.expertKey);
					block(result.text === '' ? '(no result text)' : result.text);
				}

				break;
			case 'delegate':
				field('tool call', activity.toolCallId);
				field('delegate to', activity.delegateExpertKey);
				heading('Query');
				block(activity.query === '' ? '(empty)' : activity.query);
				if (activity.childRunIds.length > 0) {
					heading('Child runs');
					for (const childId of activity.childRunIds) {
						const child = model.runs.get(childId);
						field(childId, child ? `${child.expertKey} · ${statusLook[child.status].word}` : 'not in log');
					}
				}

				heading('Result');
				if (activity.result) block(activity.result.text, activity.result.error === undefined ? undefined : 'error');
				else lines.push({text: '(waiting for the delegate)', tone: 'dim'});
				break;
			default:
				return assertNever(activity);
		}
	}

	if (activity.reasoning) {
		heading('Reasoning');
		block(activity.reasoning, 'dim');
	}

	const run = model.runs.get(activity.runId);
	if (run) {
		heading('Run');
		field('expert', run.expertKey);
		// The raw status only when the word differs from it (`max steps (stoppedByExceededMaxSteps)`).
		const word = statusLook[run.status].word;
		field('status', word === run.status ? word : `${word} (${run.status})`);
		field('steps', run.endedSteps.size);
		field('depth', depthOf(model, run));
		if (run.resumesRunId) field('resumes run', run.resumesRunId);
		if (run.resumedByRunId) field('resumed by run', run.resumedByRunId);
		if (run.resumedFrom) {
			const from = run.resumedFrom;
			field('started from', `run ${from.runId}${from.stepNumber === null ? '' : `, step ${from.stepNumber}`}${from.checkpointId === null ? '' : `, checkpoint ${from.checkpointId}`}`);
		}
		const step = (activity.step === undefined ? undefined : run.stepsByNumber.get(activity.step)) ?? run.steps[run.steps.length - 1];
		if (step) {
			field('checkpoint', step.checkpointId);
			field('checkpoint status', step.status);
		}

		if (run.error) field('error', `${run.error.name}: ${run.error.message}`);
	}

	const checkpoint = stepCheckpoint(model, activity);
	if (checkpoint?.resumeCommand) {
		heading(`Resume from this step (checkpoint ${checkpoint.checkpointId ?? ''})`);
		block(checkpoint.resumeCommand);
	}

	if (run) {
		// The run waiting now may be a later run of the pane that re-issued this call.
		const paneRuns = model.panes.get(run.paneId)?.runIds ?? [run.runId];
		const waiting = model.runs.get(paneRuns.at(-1) ?? run.runId) ?? run;
		const stop = interactiveStop(model, waiting);
		if (stop && stop.activity.id === activity.id) {
			heading('Waiting for your answer');
			field('tool', stop.toolName);
			block(safeJson(stop.args, 2));
			lines.push({text: 'Answer it with:', tone: 'label'});
			block(stop.command);
		}
	}

	heading(`Raw event (line ${activity.ref.line} of ${activity.ref.source})`);
	if (rawEvent === undefined) {
		lines.push({text: '(no longer available: the stream buffer has moved on)', tone: 'dim'});
	} else {
		const pretty = prettyIfJson(rawEvent).split('\n');
		block(pretty.slice(0, maxRawLines).join('\n'));
		if (pretty.length > maxRawLines) lines.push({text: `… ${pretty.length - maxRawLines} more lines`, tone: 'dim'});
	}

	return lines;
}

function prettyIfJson(text: string): string {
	const trimmed = text.trimStart();
	if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
	try {
		return safeJson(JSON.parse(trimmed), 2);
	} catch {
		return text;
	}
}
