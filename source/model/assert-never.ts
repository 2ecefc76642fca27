/**
 * The default of every switch over a union (eslint-rules/require-assert-never.js): the compiler proves it
 * unreachable, so reaching it means a value slipped past the types (a message from another thread, a cast),
 * and that must fail where it arrives rather than be skipped in silence.
 */
export function assertNever(value: never, what = 'value'): never {
	throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
