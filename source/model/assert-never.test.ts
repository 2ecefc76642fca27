import {describe, expect, it} from 'vitest';
import {assertNever} from './assert-never.js';

/* The default of every switch over a union: a value that slipped past the types fails loudly, naming itself. */

/** A value the types say cannot exist, as one arrives from another thread or through a cast. */
function slipped(value: unknown): never {
	return value as never;
}

describe('assertNever', () => {
	it('throws, naming the value it was given', () => {
		expect(() => assertNever(slipped({kind: 'mystery'}))).toThrow('unexpected value: {"kind":"mystery"}');
	});

	it('says what kind of value it was when told', () => {
		expect(() => assertNever(slipped('sideways'), 'event kind')).toThrow('unexpected event kind: "sideways"');
	});
});
