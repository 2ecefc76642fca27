import {describe, expect, it} from 'vitest';
import {modelFromFixtures} from '../../test/helpers/load.js';
import type {Activity, Model} from '../model/state.js';
import {displayWidth} from '../present/width.js';
import {inspectorLines, type InspectorLine} from './inspector-lines.js';

function activityOf(model: Model, test: (activity: Activity) => boolean): Activity {
	const found = model.activities.find(test);
	if (!found) throw new Error('no such activity');
	return found;
}

/** The lines under a heading, up to the next blank line. */
function section(lines: InspectorLine[], heading: string): string[] {
	const start = lines.findIndex(line => line.tone === 'heading' && line.text.startsWith(heading));
	if (start === -1) throw new Error(`no section ${heading}; headings: ${lines.filter(line => line.tone === 'heading').map(line => line.text).join(', ')}`);
	const end = lines.findIndex((line, index) => index > start && line.text === '');
	return lines.slice(start + 1, end === -1 ? undefined : end).map(line => line.text);
}

describe('the inspector lines', () => {
	it('head with the activity, then its ids and time', () => {
		const model = modelFromFixtures('real/interactive-1.ndjson');
		const lines = inspectorLines(model, activityOf(model, activity => activity.type === 'interactiveTool'), undefined, 80);
		expect(lines[0]).toEqual({text: '🙋 interactiveTool · interactive-expert · step 1', tone: 'heading'});
		expect(lines.map(line => line.text)).toContain('tool: user-input / askUser');
		expect(lines.map(line => line.text)).toContain('time: 2026-11-21T21:01:13.376Z');
	});

	it('name the run status once when its word is the raw status, and both when they differ', () => {
		const model = modelFromFixtures('real/tools.ndjson');
		const lines = inspectorLines(model, activityOf(model, activity => activity.type === 'exec'), undefined, 80).map(line => line.text);
		expect(lines).toContain('status: completed');
		const stopped = modelFromFixtures('max-steps.ndjson');
		const stoppedLines = inspectorLines(stopped, stopped.activities.at(-1)!, undefined, 80).map(line => line.text);
		expect(stoppedLines).toContain('status: max steps (stoppedByExceededMaxSteps)');
	});

	it('show a tool call’s arguments pretty-printed, and say when its result has not come yet', () => {
		const model = modelFromFixtures('real/interactive-1.ndjson');
		const lines = inspectorLines(model, activityOf(model, activity => activity.type === 'interactiveTool'), undefined, 80);
		expect(section(lines, 'Arguments')).toEqual(['{', '  "question": "Which colour should the report use?"', '}']);
		expect(section(lines, 'Result')).toEqual(['(waiting for the result)']);
	});

	it('tell how to answer a question the run is waiting on', () => {
		const model = modelFromFixtures('real/interactive-1.ndjson');
		const lines = inspectorLines(model, activityOf(model, activity => activity.type === 'interactiveTool'), undefined, 200);
		expect(section(lines, 'Waiting for your answer')).toEqual([
			'tool: askUser',
			'{',
			'  "question": "Which colour should the report use?"',
			'}',
			'Answer it with:',
			'perstack run interactive-expert "<answer>" --continue-job xlkgdwda3hj910egy4q4sxjn -i',
		]);
	});

	it('mark a failed result as an error in its heading and its lines', () => {
		const model = modelFromFixtures('real/tools.ndjson');
		const lines = inspectorLines(model, activityOf(model, activity => activity.type === 'readTextFile' && JSON.stringify(activity.args).includes('missing')), undefined, 80);
		expect(lines.find(line => line.text.startsWith('Result'))).toEqual({text: 'Result — error: File missing-file.txt does not exist.', tone: 'heading'});
	});

	it('show a delegation’s query, its child runs and their status, and the answer', () => {
		const model = modelFromFixtures('demo.ndjson');
		const lines = inspectorLines(model, activityOf(model, activity => activity.type === 'delegate'), undefined, 80);
		expect(section(lines, 'Query')).toEqual(['Run the test suite and report exactly which assertions fail and with what', 'values.']);
		expect(section(lines, 'Child runs')).toEqual([expect.stringMatching(/^\w+: test-runner · completed$/)]);
		expect(section(lines, 'Result')[0]).toBe('1 of 6 tests fails: test/duration.test.ts > formats whole hours expects');
		expect(section(lines, 'Run')).toContain('status: waiting for delegates (stoppedByDelegate)');
	});

	it('wrap fields and text to the width (headings and notes are cut by the panel instead)', () => {
		const model = modelFromFixtures('demo.ndjson');
		for (const activity of model.activities) {
			for (const line of inspectorLines(model, activity, undefined, 40)) {
				if (line.tone === undefined || line.tone === 'label') expect(displayWidth(line.text), line.text).toBeLessThanOrEqual(38);
			}
		}
	});

	it('pretty-print the raw event, or say it is gone', () => {
		const model = modelFromFixtures('real/simple.ndjson');
		const query = activityOf(model, activity => activity.type === 'query');
		expect(section(inspectorLines(model, query, '{"type":"startRun","runId":"r"}', 80), 'Raw event (line')).toEqual(['{', '  "type": "startRun",', '  "runId": "r"', '}']);
		expect(section(inspectorLines(model, query, undefined, 80), 'Raw event')).toEqual(['(no longer available: the stream buffer has moved on)']);
		expect(inspectorLines(model, query, undefined, 80).at(-2)?.text).toBe(`Raw event (line ${query.ref.line} of real/simple.ndjson)`);
	});

	it('keep escape sequences in event text off the terminal', () => {
		const model = modelFromFixtures('real/simple.ndjson');
		const query = activityOf(model, activity => activity.type === 'query');
		const lines = inspectorLines(model, query, '{"text":"\\u001b[2Jboom"}', 80);
		for (const line of lines) expect(line.text).not.toContain('\u001B');
	});
});
