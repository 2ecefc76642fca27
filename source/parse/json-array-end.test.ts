import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath} from '../../test/helpers/load.js';
import {JsonArrayEnd} from './json-array-end.js';

/*
 * The reference is how the history cutter checked an array before: find its closing bracket by counting
 * brackets outside strings, then ask JSON.parse about the decoded bytes up to it.
 */
function referenceEnd(bytes: Buffer, from: number, end: number, allowEmpty: boolean): number {
	let level = 1;
	let i = from;
	let close = -1;
	while (i < end) {
		const byte = bytes[i]!;
		if (byte === 0x22) {
			let at = i + 1;
			for (;;) {
				const found = bytes.indexOf(0x22, at);
				if (found === -1 || found >= end) return -1;
				let backslashes = 0;
				while (bytes[found - 1 - backslashes] === 0x5c) backslashes++;
				at = found + 1;
				if (backslashes % 2 === 0) break;
			}

			i = at;
			continue;
		}

		if (byte === 0x5b || byte === 0x7b) level++;
		else if (byte === 0x5d || byte === 0x7d) {
			level--;
			if (level === 0) {
				close = i + 1;
				break;
			}

			if (level < 0) return -1;
		}

		i++;
	}

	if (close === -1) return -1;
	let parsed: unknown;
	try {
		parsed = JSON.parse(`[${bytes.toString('utf8', from, close)}`);
	} catch {
		return -1;
	}

	return Array.isArray(parsed) && (allowEmpty || parsed.length > 0) ? close : -1;
}

function both(text: string | Buffer, allowEmpty = true, cutAt?: number) {
	const bytes = typeof text === 'string' ? Buffer.from(text) : text;
	const end = cutAt ?? bytes.length;
	return {actual: new JsonArrayEnd().after(bytes, 1, end, allowEmpty), expected: referenceEnd(bytes, 1, end, allowEmpty)};
}

/** A small deterministic generator (mulberry32), so that a failure can be run again. */
function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

describe('JsonArrayEnd', () => {
	it('finds the end of valid arrays as JSON.parse reads them, whatever follows', () => {
		for (const text of [
			'[]',
			'[ ]',
			'[1]',
			'[-0.5e+10,0,1E3,-1,12.25]',
			'[true,false,null]',
			'["a\\"b\\\\c\\/\\b\\f\\n\\r\\t\\u00e9"]',
			'[{"a":[{}],"b":{"c":[[],[[]]]}}]',
			'[\t{ "k" : "v" , "n" :\r\n1 } ] ',
			'["é ☃ 𝄞"]',
			'[1],"rest":[2]}',
		]) {
			const {actual, expected} = both(text);
			expect(expected, text).not.toBe(-1);
			expect(actual, text).toBe(expected);
		}
	});

	it('refuses what JSON.parse refuses', () => {
		for (const text of [
			'[',
			'[1',
			'[1,]',
			'[,1]',
			'[01]',
			'[1.]',
			'[.5]',
			'[1e]',
			'[+1]',
			'[-]',
			'[tru]',
			'[True]',
			'[nul]',
			'["a]',
			'["\\x"]',
			'["\\u12g4"]',
			'["\t"]',
			'[{"a"}]',
			'[{"a":}]',
			'[{a:1}]',
			'[{"a":1,}]',
			'[}',
			'[[}]',
			'[{]}',
			'[1 2]',
			'[\u00a01]',
			'["a" "b"]',
		]) {
			const {actual, expected} = both(text);
			expect(expected, text).toBe(-1);
			expect(actual, text).toBe(-1);
		}
	});

	it('stops at the end it is given', () => {
		const text = '["abc",[1,2],{"k":true}]';
		for (let cut = 1; cut < text.length; cut++) expect(both(text, true, cut)).toEqual({actual: -1, expected: -1});
		expect(both(text, true, text.length).actual).toBe(text.length);
	});

	it('refuses an empty array when asked for an element', () => {
		expect(both('[ ]', false)).toEqual({actual: -1, expected: -1});
		expect(both('[0]', false).actual).toBe(3);
	});

	it('takes bytes that are not UTF-8 inside strings only, as JSON.parse takes their U+FFFD', () => {
		const inString = Buffer.concat([Buffer.from('["a'), Buffer.from([0xff, 0xc3]), Buffer.from('"]')]);
		expect(both(inString)).toEqual({actual: inString.length, expected: inString.length});
		const outside = Buffer.concat([Buffer.from('[1'), Buffer.from([0xff]), Buffer.from(']')]);
		expect(both(outside)).toEqual({actual: -1, expected: -1});
	});

	it('reads nesting deeper than its first stack', () => {
		const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
		expect(both(deep)).toEqual({actual: deep.length, expected: deep.length});
	});

	it('agrees with JSON.parse on real histories and on every one-byte change of them', () => {
		const histories: string[] = [];
		for (const line of readFileSync(fixturePath('real/delegate.ndjson'), 'utf8').split('\n')) {
			const at = line.indexOf('"messages":[');
			if (at !== -1) histories.push(line.slice(at + '"messages":'.length));
		}

		expect(histories.length).toBeGreaterThan(5);
		const next = random(33);
		const alphabet = Buffer.from('[]{}",:\\ 0123456789.eE+-tfnulrsa\u0000\t\n');
		let checked = 0;
		for (const history of histories) {
			const bytes = Buffer.from(history);
			expect(both(bytes).actual).toBe(both(bytes).expected);
			for (let change = 0; change < 300; change++) {
				const changed = Buffer.from(bytes);
				const at = 1 + Math.floor(next() * (changed.length - 1));
				changed[at] = alphabet[Math.floor(next() * alphabet.length)]!;
				const {actual, expected} = both(changed, next() < 0.5);
				expect(actual, `${history.slice(0, 40)}… byte ${at} → ${changed[at]}`).toBe(expected);
				checked++;
			}
		}

		expect(checked).toBeGreaterThan(1000);
	});
});
