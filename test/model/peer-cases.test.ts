import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import type {Activity} from '../../source/model/state.js';
import {fixturePath, modelFromText} from '../helpers/load.js';

/*
 * Perstack's own activity tests (perstack-ai/perstack at ef363a5, Apache-2.0), as event logs with the
 * expectations each test makes (fixtures/peer-cases/README.md). Every expectation runs against perscope's
 * model, except those listed in `differences` below, each with the reason a Perstack user would accept (a
 * listed expectation must still fail, so the list cannot go stale), and those on Perstack's own hook state
 * (`state.…`), which has no counterpart on the wire.
 */

type Assert = {path: string; op: 'toBe' | 'toEqual' | 'toHaveLength' | 'toBeUndefined' | 'toBeDefined'; expected?: unknown; afterEvents: number};
type Case = {suite: string; name: string; file: string; checkpointStatusAdded: boolean; asserts: Assert[]};

const expectations: {source: string; cases: Case[]} = JSON.parse(readFileSync(fixturePath('peer-cases/expectations.json'), 'utf8'));

/** Fields Perstack parses out of a tool's result JSON; perscope keeps the result's text and reads them from it here. */
const resultFields = new Set([
	'content',
	'items',
	'todos',
	'output',
	'stdout',
	'stderr',
	'info',
	'remainingTodos',
	'mimeType',
	'size',
	'count',
	'from',
	'to',
	'newTodos',
	'completedTodos',
]);

/**
 * Where perscope deliberately differs: `case file` → assert index → reason. A key of `*` covers every assert of
 * the case.
 */
const shownWhenCalled =
	'perscope shows a tool call as soon as the model makes it, so a live view shows what is running; Perstack lists it only once its result is in (and its useRun never shows an interactive call, for which the runtime sends no result event)';
const parsedResult =
	"perscope keeps a tool's result text as the runtime sent it and shows it whole; Perstack parses fields out of it and fills in defaults where the JSON lacks them";
const finishAllToolCalls =
	"the runtime gives a delegation's results in the resumed run's startRun (initialCheckpoint.partialToolResults), where perscope takes them (fixtures/real/delegate.ndjson); finishAllToolCalls repeats them as message history, which perscope does not keep. This log has no resumed startRun";
const perstackWording = 'wording Perstack makes up; the runtime sends nothing that says it';
const differences: Record<string, Record<string, string>> = {
	'event-to-activity/08-processes-tool-call-and-result-events.ndjson': {0: shownWhenCalled},
	'event-to-activity/16-processes-callinteractivetool-event.ndjson': {0: shownWhenCalled},
	'activity/12-returns-activities-only-for-tool-calls-with-matching-results.ndjson': {0: shownWhenCalled},
	'event-to-activity/20-does-not-log-query-when-user-message-has-no-text-content.ndjson': {
		0: 'a user message that holds only an image still asked something: perscope shows it as the query `[image]`',
	},
	'event-to-activity/26-maintains-daisy-chain-with-previousactivityid-within-a-run.ndjson': {
		2: "activity ids: perscope names a query after its startRun event's id, which the wire gives; Perstack makes up `query-<runId>`. The chain is the same",
	},
	'event-to-activity/29-processes-finishalltoolcalls-event-for-delegation-results.ndjson': {
		5: finishAllToolCalls,
		6: finishAllToolCalls,
		7: finishAllToolCalls,
	},
	'activity/08-returns-retry-activity-when-no-tool-call-or-result.ndjson': {
		2: perstackWording,
		3: "perscope shows the runtime's reason for a retry; the text the model gave before it is in the raw event",
	},
	'activity/25-returns-error-activity-when-status-is-stoppedbyerror.ndjson': {4: 'whether an error is retryable is not shown: the run has stopped either way'},
	'activity/26-handles-stoppedbyerror-with-missing-error-details.ndjson': {
		2: `${perstackWording} ("Unknown error"); perscope shows the error's name and an empty message`,
	},
	'activity/27-returns-retry-activity-when-delegateto-is-empty.ndjson': {
		'*': 'the runtime never stops by delegation without a target (calling-delegate.ts throws "No delegate tool calls found"); Perstack makes up a retry for that state, perscope shows the stop as the runtime reports it',
	},
	'activity/28-returns-retry-activity-when-delegateto-is-undefined.ndjson': {
		'*': 'the runtime never stops by delegation without a target (calling-delegate.ts throws "No delegate tool calls found"); Perstack makes up a retry for that state, perscope shows the stop as the runtime reports it',
	},
	'activity/34-returns-getfileinfo-activity.ndjson': {3: parsedResult, 4: parsedResult, 5: parsedResult},
	'activity/44-handles-missing-fields-in-parsed-json.ndjson': {2: parsedResult, 3: parsedResult},
	'activity/47-handles-todos-with-missing-id-title-completed-fields.ndjson': {3: parsedResult, 4: parsedResult, 5: parsedResult},
	'activity/48-handles-remainingtodos-with-missing-fields.ndjson': {5: parsedResult, 6: parsedResult, 7: parsedResult},
	'activity/49-handles-listdirectory-items-with-missing-invalid-fields.ndjson': {5: parsedResult, 6: parsedResult, 7: parsedResult},
	'activity/50-handles-todo-result-with-non-array-todos-field.ndjson': {2: parsedResult},
	'activity/51-handles-listdirectory-result-with-non-array-items-field.ndjson': {2: parsedResult},
	'activity/52-handles-readimagefile-with-number-fields.ndjson': {3: parsedResult},
};

/** Perstack's Activity field, read from perscope's activity. */
function field(activity: Activity, name: string): unknown {
	if (activity.type === 'retry' && (name === 'message' || name === 'error')) return activity.reason;
	if (name === 'error') {
		if (activity.type === 'error') return activity.message;
		return 'result' in activity ? activity.result?.error : undefined;
	}

	// Perstack leaves the first activity's link out; perscope writes it as null.
	if (name === 'previousActivityId') return activity.previousActivityId ?? undefined;
	if (name === 'count' && activity.type === 'delegationComplete') return activity.results.length;
	// Perstack's exec activity calls the command's arguments `args`; perscope's `args` are the tool's arguments.
	if (name === 'args' && activity.type === 'exec')
		return typeof activity.args === 'object' && activity.args !== null ? Reflect.get(activity.args, 'args') : undefined;
	if (name in activity) return Reflect.get(activity, name);
	if ('args' in activity && typeof activity.args === 'object' && activity.args !== null && name in activity.args) return Reflect.get(activity.args, name);
	if (resultFields.has(name) && 'result' in activity && activity.result) {
		try {
			const parsed: unknown = JSON.parse(activity.result.text);
			if (typeof parsed === 'object' && parsed !== null) return Reflect.get(parsed, name);
		} catch {
			return undefined;
		}
	}

	return undefined;
}

/** The value at a Perstack test's path (`0.type`, `activities`, `1.delegatedBy.runId`, `0.items.1.name`). */
function valueAt(activities: Activity[], path: string): unknown {
	if (path === 'activities') return activities;
	const subset = /^subset\((\d+),(\d+)\)$/.exec(path);
	if (subset) return [activities[Number(subset[1])], activities[Number(subset[2])]].filter(activity => activity !== undefined);
	const [index, name, ...rest] = path.split('.');
	const activity = activities[Number(index)];
	if (activity === undefined) return undefined;
	if (name === undefined) return activity;
	let value = field(activity, name);
	for (const step of rest) {
		if (typeof value !== 'object' || value === null) return undefined;
		value = Reflect.get(value, /^\d+$/.test(step) ? Number(step) : step);
	}

	return value;
}

function activitiesAfter(testCase: Case, events: number): Activity[] {
	const lines = readFileSync(fixturePath(`peer-cases/${testCase.file}`), 'utf8')
		.split('\n')
		.filter(Boolean);
	return modelFromText((events === 0 ? lines : lines.slice(0, events)).join('\n')).activities;
}

function check(activities: Activity[], assert: Assert): void {
	const value = valueAt(activities, assert.path);
	switch (assert.op) {
		case 'toBe':
			expect(value).toBe(assert.expected);
			return;
		case 'toEqual':
			expect(value).toEqual(assert.expected);
			return;
		case 'toHaveLength':
			expect(value).toHaveLength(Number(assert.expected));
			return;
		case 'toBeUndefined':
			expect(value).toBeUndefined();
			return;
		case 'toBeDefined':
			expect(value).toBeDefined();
	}
}

function reasonFor(testCase: Case, index: number, assert: Assert): string | undefined {
	const listed = differences[testCase.file];
	return listed?.[String(index)] ?? listed?.['*'];
}

describe(`Perstack's activity tests hold for perscope (${expectations.source})`, () => {
	it.each(expectations.cases.map(testCase => [`${testCase.suite}: ${testCase.name}`, testCase] as const))('%s', (_name, testCase) => {
		testCase.asserts.forEach((assert, index) => {
			// Perstack's hook state has no counterpart on the wire or in perscope's model: nothing to compare.
			if (assert.path.startsWith('state.')) return;
			const activities = activitiesAfter(testCase, assert.afterEvents);
			const reason = reasonFor(testCase, index, assert);
			if (reason === undefined) {
				check(activities, assert);
				return;
			}

			// A listed difference must still be one.
			expect(() => check(activities, assert), `${assert.path} is listed as a difference (${reason}) but holds`).toThrow();
		});
	});
});
