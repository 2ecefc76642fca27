import {invalid, type Reader} from './wire-reader.js';

/**
 * A value read by a fast reader (wire-reader.ts), or undefined when the reader does not take it: then the zod
 * schema it stands in for judges the value, and words what is wrong with it.
 */
export function readWith<T>(reader: Reader<T>, value: unknown): T | undefined {
	try {
		return reader.read(value);
	} catch (error) {
		if (error === invalid) return undefined;
		throw error;
	}
}
