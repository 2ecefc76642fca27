import {describe, expect, it} from 'vitest';
import {exitStatus, parseExecResult} from './exec-result.js';

describe('an exec result', () => {
	it('reads the output of a command that succeeded, as Perstack writes it', () => {
		const result = parseExecResult('{"output":"4 notes.md\\n"}');
		expect(result).toEqual({ok: true, output: '4 notes.md\n'});
		expect(exitStatus(result!)).toBe('0');
	});

	it('reads the error, stdout and stderr of a command that failed', () => {
		const result = parseExecResult('{"error":"Command failed: false","stderr":"boom\\n"}');
		expect(result).toEqual({ok: false, error: 'Command failed: false', stdout: undefined, stderr: 'boom\n'});
		expect(exitStatus(result!)).toMatch(/non-zero/);
	});

	it('reads the message of the generic tool error older Perstack versions wrote', () => {
		expect(parseExecResult('{"error":"Error","message":"Command failed: npm test\\nsh: 1: vitest: not found"}')).toEqual({
			ok: false,
			error: 'Command failed: npm test\nsh: 1: vitest: not found',
			stdout: undefined,
			stderr: undefined,
		});
	});

	it('is undefined for text of another shape', () => {
		expect(parseExecResult('plain text')).toBeUndefined();
		expect(parseExecResult('{"other":1}')).toBeUndefined();
		expect(parseExecResult('{broken')).toBeUndefined();
		expect(parseExecResult('[1]')).toBeUndefined();
	});
});
