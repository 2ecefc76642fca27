import {describe, expect, it} from 'vitest';
import {toolErrorOf} from './tool-error.js';

/* Which tool results are errors, and the words the activity shows for them. */

describe('toolErrorOf', () => {
	it('reads the message of a JSON error result', () => {
		expect(toolErrorOf('{"error":"FileNotFound","message":"no such file: a.ts"}')).toBe('no such file: a.ts');
	});

	it('falls back to the error’s name when there is no message', () => {
		expect(toolErrorOf('{"error":"Timeout"}')).toBe('Timeout');
		expect(toolErrorOf('{"error":"Timeout","message":""}')).toBe('Timeout');
		expect(toolErrorOf('{"error":{"code":504}}')).toBe('{"code":504}');
	});

	it('says just "error" when the result says no more than that there was one', () => {
		expect(toolErrorOf('{"error":true}')).toBe('error');
		expect(toolErrorOf('{"error":null}')).toBe('error');
		expect(toolErrorOf('{"error":""}')).toBe('error');
	});

	it('takes the runtime’s own words for a failed MCP call, trimmed', () => {
		expect(toolErrorOf('  Error calling tool readFile: ENOENT: no such file\n')).toBe('Error calling tool readFile: ENOENT: no such file');
		expect(toolErrorOf('Error: server refused the request')).toBe('Error: server refused the request');
	});

	it('is no error when the text merely mentions one', () => {
		expect(toolErrorOf('processed 3 files without error')).toBeUndefined();
		expect(toolErrorOf('Errors: none')).toBeUndefined();
		expect(toolErrorOf('An Error: this one is not at the start')).toBeUndefined();
	});

	it('is no error for JSON results that carry no error field', () => {
		expect(toolErrorOf('{"result":"ok","message":"done"}')).toBeUndefined();
		expect(toolErrorOf('{"note":"mentions \\"error\\" in a value"}')).toBeUndefined();
		expect(toolErrorOf('["error"]')).toBeUndefined();
	});

	it('is no error for text that only looks like JSON', () => {
		expect(toolErrorOf('{"error": "unterminated')).toBeUndefined();
		expect(toolErrorOf('')).toBeUndefined();
	});
});
