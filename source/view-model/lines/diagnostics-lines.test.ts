import {describe, expect, it} from 'vitest';
import {addDiagnostic} from '../../model/reduce.js';
import {createModel} from '../../model/state.js';
import {displayWidth} from '../../text/width/width.js';
import {diagnosticsLines} from './diagnostics-lines.js';

describe('#32 §3.5 the diagnostics overlay wraps its reasons; a job directory’s file is named without :0', () => {
	const model = createModel();
	const file = '/home/user/perstack/jobs/nh97zzzwnx6y4a76u4s8o5m3/runs/dmje3rcfff3ny6xcq0hciava/event-1795764053475-1-callTools.json';
	addDiagnostic(model, {line: 1, source: file, reason: 'not JSON (Expected double-quoted property name in JSON at position 21)'});
	addDiagnostic(model, {line: 0, source: '/home/user/perstack/jobs/j/runs/r/event-1-1-startRun.json', reason: 'not read: it is a FIFO, not a regular file'});

	it('wraps a long reason under itself at 80 columns: nothing is cut, every line fits', () => {
		const lines = diagnosticsLines(model, 80).map(line => line.text);
		expect(lines.every(line => displayWidth(line) <= 79)).toBe(true);
		expect(lines.join(' ').replaceAll(/\s+/g, ' ')).toContain('Expected double-quoted property name in JSON at position 21)');
		// The lines after the first of a diagnostic are indented under it.
		expect(lines[1]).toMatch(/^ {4}\S/);
	});

	it('names a file that failed as a whole without a line number', () => {
		const text = diagnosticsLines(model, 200).map(line => line.text);
		expect(text).toContain('/home/user/perstack/jobs/j/runs/r/event-1-1-startRun.json  not read: it is a FIFO, not a regular file');
		expect(text.join('\n')).not.toContain(':0');
	});
});
