import {describe, expect, it} from 'vitest';
import {modelFromFixtures} from '../../test/helpers/load.js';
import {isToolActivity, type Activity} from '../model/state.js';
import {activityJson, activityJsonLine, jsonForTerminal} from './activity-json.js';

function firstOf(fixture: string, type: Activity['type']): Activity {
	const found = modelFromFixtures(fixture).activities.find(activity => activity.type === type);
	if (!found) throw new Error(`no ${type} in ${fixture}`);
	return found;
}

describe('activityJson', () => {
	it('keeps what the activity says and drops the viewer bookkeeping', () => {
		const json = activityJson(firstOf('real/tools.ndjson', 'exec'));
		expect(json).toMatchObject({type: 'exec', expertKey: 'tools-expert', toolName: 'exec', args: {command: 'wc'}});
		expect(json).not.toHaveProperty('ref');
		expect(json).not.toHaveProperty('seq');
		expect(json).not.toHaveProperty('settled');
	});

	it('writes a tool result as its text and error, null when there is no error', () => {
		const json = activityJson(firstOf('real/tools.ndjson', 'exec'));
		expect(json['result']).toEqual({text: expect.stringContaining('notes.md'), error: null});
	});

	it('writes a question not yet answered with a null result', () => {
		expect(activityJson(firstOf('real/interactive-1.ndjson', 'interactiveTool'))['result']).toBeNull();
	});

	it('gives activities without a result no result field', () => {
		expect(activityJson(firstOf('real/tools.ndjson', 'query'))).not.toHaveProperty('result');
	});
});

describe('jsonForTerminal', () => {
	it('spells out characters a terminal would act on, and parses back to the same value', () => {
		const value = {text: 'csi\u009B2J bidi\u202Eevil\u202C del\u007F bom\uFEFF line\u2028sep'};
		const line = jsonForTerminal(value);
		expect(line).not.toMatch(/[\u007F-\u009F\u202A-\u202E\u2028\uFEFF]/);
		expect(line).toContain('\\u009B');
		expect(line).toContain('\\u202E');
		expect(JSON.parse(line)).toEqual(value);
	});

	it('leaves ordinary text, emoji and CJK as they are', () => {
		expect(jsonForTerminal({text: 'héllo 日本 😀'})).toBe('{"text":"héllo 日本 😀"}');
	});
});

describe('activityJsonLine', () => {
	it('is one line of JSON for a real activity', () => {
		const line = activityJsonLine(firstOf('demo.ndjson', 'delegate'));
		expect(line).not.toContain('\n');
		expect(JSON.parse(line)).toMatchObject({type: 'delegate', delegateExpertKey: 'test-runner'});
	});

	it('writes arguments too deep to serialise as a note instead of throwing', () => {
		const exec = firstOf('real/tools.ndjson', 'exec');
		if (!isToolActivity(exec)) throw new Error('exec is a tool call');
		let deep: unknown = 'bottom';
		for (let i = 0; i < 100_000; i++) deep = [deep];
		const line = activityJsonLine({...exec, args: deep});
		expect(JSON.parse(line)).toMatchObject({type: 'exec', args: '[too deep to serialise]'});
	});
});
