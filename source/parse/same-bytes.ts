/**
 * Whether `bytes` holds `expected` at `at` (which the caller knows fits). For the few bytes of a key, a type name
 * or a literal, a loop costs less than Buffer#compare, whose checks of its arguments and call into C++ are most of
 * its cost.
 */
export function sameBytesAt(bytes: Buffer, at: number, expected: Buffer): boolean {
	for (let i = 0; i < expected.length; i++) if (bytes[at + i] !== expected[i]) return false;
	return true;
}
