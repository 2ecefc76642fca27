import {describe, expect, it} from 'vitest';
import {prettyJsonLines} from './pretty-json.js';

describe('pretty arguments', () => {
	it('reads like indented JSON for plain values', () => {
		const value = {question: 'Which colour?', n: 2, list: [1, 'a'], empty: {}, none: null};
		expect(prettyJsonLines(value)).toEqual(JSON.stringify(value, null, 2).split('\n'));
	});

	it('shows a string with line breaks as its lines under a bar', () => {
		expect(prettyJsonLines({path: 'a.sh', script: 'set -e\nmake\n'})).toEqual(['{', '  "path": "a.sh",', '  "script": |', '    set -e', '    make', '}']);
	});

	it('falls back to compact JSON past a deep nesting', () => {
		let deep: unknown = 'x';
		for (let n = 0; n < 100_000; n++) deep = [deep];
		const lines = prettyJsonLines(deep);
		expect(lines.length).toBeLessThan(200);
	});
});
