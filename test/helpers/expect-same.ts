import {isDeepStrictEqual} from 'node:util';
import {expect} from 'vitest';

/** A failure's message, or a function making it: made only when a check fails (checks run thousands of times). */
export type Message = string | (() => string);

export function messageOf(message: Message | undefined): string | undefined {
	return typeof message === 'function' ? message() : message;
}

/**
 * `expect(actual, message).toStrictEqual(expected)`, decided first by Node's `isDeepStrictEqual`, which is as
 * strict (prototypes, undefined properties, sparse arrays) and many times faster on large plain data such as
 * model snapshots; only when the two differ does vitest compare them again, for its diff.
 */
export function expectSame(actual: unknown, expected: unknown, message?: Message): void {
	if (isDeepStrictEqual(actual, expected)) return;
	expect(actual, messageOf(message)).toStrictEqual(expected);
}

/**
 * `expect(actual, message).toEqual(expected)`, decided first by `isDeepStrictEqual`: it is stricter than toEqual,
 * so its yes is toEqual's too, and many times faster on large data (rows, models); only when it says no does
 * vitest compare them, for its verdict (toEqual overlooks what isDeepStrictEqual does not) and its diff.
 */
export function expectEqual(actual: unknown, expected: unknown, message?: Message): void {
	if (isDeepStrictEqual(actual, expected)) return;
	expect(actual, messageOf(message)).toEqual(expected);
}
