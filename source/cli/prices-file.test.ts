import {describe, expect, it} from 'vitest';
import {parsePriceTable, PriceFileError, readPriceFile} from './prices-file.js';

function errorOf(text: string): PriceFileError {
	try {
		parsePriceTable(text, 'p.json');
	} catch (error) {
		if (error instanceof PriceFileError) return error;
		throw error;
	}

	throw new Error('expected a PriceFileError');
}

describe('a --prices file', () => {
	it('gives a table named after the file, with its own source and date when it has them', () => {
		const table = parsePriceTable('{"models":{"m":{"provider":"openai","input":1,"cachedInput":0.1,"output":2}}}', 'p.json');
		expect(table).toEqual({source: 'p.json', date: null, file: 'p.json', models: {m: {provider: 'openai', input: 1, cachedInput: 0.1, output: 2}}});
		expect(parsePriceTable('{"source":"our contract","date":"2026-11-01","models":{}}', 'p.json')).toMatchObject({source: 'our contract', date: '2026-11-01'});
	});

	it('says what is wrong and where, in one line, exit code 2', () => {
		expect(errorOf('{"models":{"m":{"provider":"openai","input":1,"output":2}}}').message).toBe(
			'--prices p.json: models.m.cachedInput: Invalid input: expected number, received undefined',
		);
		expect(errorOf('{"models":{"m":{"provider":"acme","input":1,"cachedInput":1,"output":2}}}').message).toMatch(/^--prices p\.json: models\.m\.provider: /);
		expect(errorOf('{"models":{"m":{"provider":"openai","input":-1,"cachedInput":1,"output":2}}}').message).toMatch(/models\.m\.input: /);
		expect(errorOf('{"modles":{}}').message).toMatch(/^--prices p\.json: /);
		expect(errorOf('{"models":{}, "date":"yesterday"}').message).toBe('--prices p.json: date: a date is written YYYY-MM-DD, and must be a day of the calendar');
		expect(errorOf('not json').message).toMatch(/^--prices p\.json: not JSON: /);
		expect(errorOf('not json').exitCode).toBe(2);
	});

	it('a file that cannot be read is exit code 1', () => {
		expect(() => readPriceFile('/nonexistent/prices.json')).toThrow(
			expect.objectContaining({exitCode: 1, message: '--prices /nonexistent/prices.json: cannot be read (ENOENT)'}),
		);
	});
});
