import {mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {basename, join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import type {Activity} from '../model/state.js';
import {exportBaseName, exportRawEvent, maxIndentedChars, maxIndentedDepth, prettyJson} from './export-event.js';
import {modelFromFixtures} from '../../test/helpers/load.js';

const model = modelFromFixtures('demo.ndjson');
const exec = model.activities.find(activity => activity.type === 'exec')!;
const raw = '{"type":"callTools","id":"e1","big":12345678901234567890,"toolCalls":[{"id":"c1","args":{}}],"list":[],"text":"a,b:{c}"}';

function withId(activity: Activity, id: string): Activity {
	return {...activity, id};
}

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'perscope-export-'));
});
afterEach(() => {
	rmSync(dir, {recursive: true, force: true});
});

describe('exporting the selected event', () => {
	it('writes the raw JSON, pretty-printed, to perscope-<type>-<id>.json and returns the path', () => {
		const path = exportRawEvent(raw, exec, dir);
		expect(path).toBe(join(dir, `perscope-callTools-${exec.id}.json`));
		const written = readFileSync(path, 'utf8');
		expect(JSON.parse(written)).toEqual(JSON.parse(raw));
		expect(written.split('\n').length).toBeGreaterThan(5);
	});

	it('never overwrites: the next export of the same event gets -1, then -2', () => {
		writeFileSync(join(dir, `perscope-callTools-${exec.id}.json`), 'keep me');
		const first = exportRawEvent(raw, exec, dir);
		const second = exportRawEvent(raw, exec, dir);
		expect([basename(first), basename(second)]).toEqual([`perscope-callTools-${exec.id}-1.json`, `perscope-callTools-${exec.id}-2.json`]);
		expect(readFileSync(join(dir, `perscope-callTools-${exec.id}.json`), 'utf8')).toBe('keep me');
	});

	it('names the file after the raw event it holds, not the activity made of it', () => {
		const returned = model.activities.find(activity => activity.type === 'delegationComplete')!;
		const startRun = '{"type":"startRun","id":"s1","runId":"r1"}';
		expect(basename(exportRawEvent(startRun, returned, dir))).toBe(`perscope-startRun-${returned.id}.json`);
		// With no type of its own (or not JSON), the activity's type names it.
		expect(exportBaseName(returned, 'not json')).toBe(`perscope-delegationComplete-${returned.id}`);
		expect(exportBaseName(returned, '{"type":"../evil"}')).toBe(`perscope-.._evil-${returned.id}`);
	});

	it('an id from the log cannot name another directory or a hidden file', () => {
		expect(exportBaseName(withId(exec, '../../etc/passwd'))).toBe('perscope-exec-.._.._etc_passwd');
		const path = exportRawEvent(raw, withId(exec, '../x y/\u001b'), dir);
		expect(readdirSync(dir)).toEqual([basename(path)]);
		expect(basename(path)).toMatch(/^[A-Za-z0-9._-]+$/);
		expect(exportBaseName(withId(exec, 'x'.repeat(500))).length).toBeLessThan(100);
	});

	it('a directory that cannot be written is an error for the caller to show', () => {
		expect(() => exportRawEvent(raw, exec, join(dir, 'missing'))).toThrow(/ENOENT/);
	});
});

describe('pretty-printing without changing the event', () => {
	it('is the same as JSON.stringify with two spaces for ordinary JSON', () => {
		const ordinary = '{"a":1,"b":[1,2,{"c":"x"}],"d":{},"e":[],"f":null,"g":"q\\"uote"}';
		expect(prettyJson(ordinary)).toBe(`${JSON.stringify(JSON.parse(ordinary), null, 2)}\n`);
	});

	it('keeps numbers and escapes exactly as they were written', () => {
		const pretty = prettyJson(raw);
		expect(pretty).toContain('12345678901234567890');
		expect(pretty).toContain('"a,b:{c}"');
		expect(prettyJson('{"s":"\\u00e9\\n"}')).toContain('"\\u00e9\\n"');
	});

	it('text that is not JSON is written as it is', () => {
		expect(prettyJson('not json')).toBe('not json\n');
	});

	it('indents JSON nested up to maxIndentedDepth levels, and writes deeper JSON as it came (its indentation grows by the depth squared)', () => {
		const nested = (depth: number) => `{"a":${'[1,'.repeat(depth - 1)}1${']'.repeat(depth - 1)}}`;
		expect(prettyJson(nested(maxIndentedDepth))).toBe(`${JSON.stringify(JSON.parse(nested(maxIndentedDepth)), null, 2)}\n`);
		expect(prettyJson(nested(maxIndentedDepth + 1))).toBe(`${nested(maxIndentedDepth + 1)}\n`);
	});

	it('writes JSON as it came when its indented text would pass maxIndentedChars', () => {
		// 60 levels deep, each item's line indented by 120 spaces: ~1/60 of the bound indents past it.
		const items = Math.ceil(maxIndentedChars / 120);
		const wide = `${'['.repeat(59)}[${'1,'.repeat(items)}1]${']'.repeat(59)}`;
		expect(wide.length).toBeLessThan(maxIndentedChars / 50);
		expect(prettyJson(wide)).toBe(`${wide}\n`);
		const long = `{"text":"${'x'.repeat(maxIndentedChars)}"}`;
		expect(prettyJson(long)).toBe(`${long}\n`);
	});

	it('copies strings whole, escaped quotes and backslashes included', () => {
		const tricky = '{"a":"x\\\\","b":"say \\"hi\\" [,:{}]","c":["\\\\\\""]}';
		expect(prettyJson(tricky)).toBe(`${JSON.stringify(JSON.parse(tricky), null, 2)}\n`);
	});
});
