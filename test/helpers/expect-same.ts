import {isDeepStrictEqual} from 'node:util';
import {expect} from 'vitest';

/**
 * `expect(actual, message).toStrictEqual(expected)`, decided first by Node's `isDeepStrictEqual`, which is as
 * strict (prototypes, undefined properties, sparse arrays) and many times faster on large plain data such as
 * model snapshots; only when the two differ does vitest compare them again, for its diff.
 */
export function expectSame(actual: unknown, expected: unknown, message?: string): void {
	if (isDeepStrictEqual(actual, expected)) return;
	expect(actual, message).toStrictEqual(expected);
}
