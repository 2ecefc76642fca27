import {spawnSync} from 'node:child_process';
import {describe, expect, it} from 'vitest';
import {createReducer} from 'perscope';
import {parseKeyValues} from '../../source/cli/otlp-options.js';
import {cliPath, repoRoot} from '../helpers/cli-process.js';

/*
 * Issue #34: tables keyed by what the input says were object literals, and `__proto__` as a key of one sets
 * its prototype instead of adding the key. Compared as lists of entries: a literal `{__proto__: 1}` in the test
 * would have the same trouble.
 */

const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
const log = `${names.map((type, n) => JSON.stringify({type, id: `u${n}`, timestamp: 1_700_000_000_000, jobId: 'job', runId: 'run'})).join('\n')}\n${JSON.stringify({type: '__proto__', id: 'u9', timestamp: 1_700_000_000_000, jobId: 'job', runId: 'run'})}\n`;
const expected = [
	['__proto__', 2],
	['constructor', 1],
	['hasOwnProperty', 1],
	['toString', 1],
	['valueOf', 1],
];

describe('an unknown event type named after a property every object has', () => {
	it('an unknown type named __proto__ was missing from unknownEvents in --summary --json', () => {
		const result = spawnSync(process.execPath, [cliPath, '--summary', '--json'], {cwd: repoRoot, input: log, encoding: 'utf8'});
		expect(result.status, result.stderr).toBe(0);
		const summary = JSON.parse(result.stdout) as {unknownEvents: object};
		expect(Object.entries(summary.unknownEvents)).toEqual(expected);
	});

	it('an unknown type named __proto__ was missing from the library’s summary(), and from summaryJson()', () => {
		const reducer = createReducer();
		reducer.pushChunk(Buffer.from(log));
		reducer.end();
		expect(Object.entries(reducer.summary().unknownEvents)).toEqual(expected);
		expect(Object.entries((JSON.parse(reducer.summaryJson()) as {unknownEvents: object}).unknownEvents)).toEqual(expected);
	});

	it('a key named __proto__ in OTEL_EXPORTER_OTLP_HEADERS or OTEL_RESOURCE_ATTRIBUTES was lost', () => {
		expect(Object.entries(parseKeyValues('__proto__=a,constructor=b,x=c'))).toEqual([
			['__proto__', 'a'],
			['constructor', 'b'],
			['x', 'c'],
		]);
	});
});
