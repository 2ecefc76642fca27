/*
 * The one place the model changes. `reduce` folds an event into the model in place: the model can hold
 * hundreds of thousands of activities, and copying it per event would make loading quadratic. It is still
 * deterministic and free of I/O: the same events in the same order always give the same model. Views
 * detect change through the `rev` counters on the model, runs and panes.
 *
 * This file holds the one switch over the kinds of event; the handlers are in reduce/, each part on the shared
 * primitives of reduce/activities.ts: runs.ts (runs, panes and their links), run-start.ts (a start or a resume),
 * steps.ts, tool-calls.ts, streams.ts, drover-daemon.ts and runtime.ts (skills, containers, the proxy).
 */
import {type AgentEvent, type Diagnostic} from './events.js';
import {addUsage} from './usage.js';
import {maxStoredDiagnostics, type Model} from './state.js';
import {assertNever} from './assert-never.js';
import {addId} from './id-table.js';
import {compactTouched, startRecords} from './storage/run-store.js';
import {addActivity, addQuery} from './reduce/activities.js';
import {onChildRunStart, onRunEnd, targetRun} from './reduce/drover-daemon.js';
import {onRunStart} from './reduce/run-start.js';
import {touch} from './reduce/runs.js';
import {countUnknown, onDocker, onProxy, onReportedCost, onRuntimeInit, onSkill, onSkillStderr} from './reduce/runtime.js';
import {onStepEnd, onStepStart} from './reduce/steps.js';
import {onStream} from './reduce/streams.js';
import {onToolCalls, onToolResults} from './reduce/tool-calls.js';

export function reduce(model: Model, event: AgentEvent): void {
	startRecords(model);
	reduceEvent(model, event);
	compactTouched(model);
}

function reduceEvent(model: Model, wireEvent: AgentEvent): void {
	// The run a released-CLI event belongs to is a segment of its run id (run-segments.ts); nothing changes otherwise.
	const event = model.runSegments.route(model, wireEvent);
	// Events are counted as lines: the further events one line made are not counted again.
	if (event.continuesLine !== true) model.events++;
	model.rev++;
	if (event.timestamp !== undefined) {
		if (model.firstTimestamp === undefined || event.timestamp < model.firstTimestamp) model.firstTimestamp = event.timestamp;
		if (model.lastTimestamp === undefined || event.timestamp > model.lastTimestamp) model.lastTimestamp = event.timestamp;
	}

	switch (event.kind) {
		case 'unknown':
			countUnknown(model, event.wireType);
			return;
		case 'runtimeInit':
			onRuntimeInit(model, event);
			return;
		case 'skill':
			onSkill(model, event);
			return;
		case 'skillStderr':
			onSkillStderr(model, event);
			return;
		case 'docker':
			onDocker(model, event);
			return;
		case 'proxy':
			onProxy(model, event);
			return;
		case 'runStart':
			onRunStart(model, event, wireEvent.runId);
			return;
		case 'childRunStart':
			onChildRunStart(model, event);
			return;
		case 'reportedCost':
			onReportedCost(model, event);
			return;
		// The events of a run, handled below once their run is found.
		case 'stepStart':
		case 'toolCalls':
		case 'toolResults':
		case 'stepEnd':
		case 'retry':
		case 'stream':
		case 'usage':
		case 'runEnd':
		case 'runError':
		case 'query':
		case 'marker':
			break;
		default:
			return assertNever(event);
	}

	const run = targetRun(model, event);
	if (!run) return;
	touch(run, event);
	switch (event.kind) {
		case 'stepStart':
			onStepStart(model, run, event);
			return;
		case 'toolCalls':
			onToolCalls(model, run, event);
			return;
		case 'toolResults':
			onToolResults(model, run, event);
			return;
		case 'stepEnd':
			onStepEnd(model, run, event);
			return;
		case 'retry':
			addActivity(model, run, event, {type: 'retry', reason: event.reason}, true);
			return;
		case 'stream':
			onStream(model, run, event);
			return;
		case 'usage':
			run.usage = addUsage(run.usage, event.usage);
			return;
		case 'runEnd':
			onRunEnd(model, run, event);
			return;
		case 'runError': {
			// A warning is shown as an error activity, but neither fails the run nor stands for how it ended.
			const closing = run.closing;
			if (event.warning !== true) run.error = {name: event.name, message: event.message};
			addActivity(model, run, event, {type: 'error', errorName: event.name, message: event.message}, true);
			if (event.warning === true) run.closing = closing;
			return;
		}
		case 'query':
			addQuery(model, run, event, event.text);
			return;
		case 'marker':
			return;
		default:
			return assertNever(event);
	}
}

/**
 * Whether the event was seen before, by its id: a log concatenated with itself, or a tee'd stream merged with
 * its file, repeats events, and one `completeRun` twice must not make two `complete` activities. Perstack's
 * event ids are unique. Streaming events too, though they are most of a log: a repeated one was counted again
 * and went unreported (the id table's one-pass `addId` keeps that cheap: docs/performance.md).
 */
export function isRepeatedEvent(model: Model, event: AgentEvent): boolean {
	if (event.dialect !== 'perstack' || event.id === '') return false;
	return !addId(model.eventIds, event.id);
}

export function addDiagnostic(model: Model, diagnostic: Diagnostic): void {
	model.diagnosticCount++;
	model.rev++;
	if (model.diagnostics.length < maxStoredDiagnostics) model.diagnostics.push(diagnostic);
}
