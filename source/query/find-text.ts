/*
 * Finding one string in another in time linear in their lengths, whatever they hold.
 *
 * V8's own `indexOf` / `includes` is linear only while its Boyer-Moore tables cover the whole needle (250
 * characters): past that it compares the rest of the needle character by character at each place whose last
 * 250 characters match, so a 20,000-character query against a 64 KiB text of one repeated letter took most of
 * a second, per text (issue #34). A query pasted into `/` is such a needle. So a needle up to that length goes
 * to V8 (fastest, and linear), and a longer one is looked for by its first 250 characters with V8, then, from
 * where those occur, by Knuth-Morris-Pratt (linear, and only run on the texts that hold that start).
 */

/** The longest needle V8's search is known to be linear for (its `kBMMaxShift`). */
export const nativeNeedleLimit = 250;

/** For each prefix of `needle`, the length of its longest proper prefix that is also its suffix. */
function failureTable(needle: string): Int32Array {
	const table = new Int32Array(needle.length);
	let length = 0;
	for (let index = 1; index < needle.length; index++) {
		const code = needle.charCodeAt(index);
		while (length > 0 && needle.charCodeAt(length) !== code) length = table[length - 1]!;
		if (needle.charCodeAt(length) === code) length++;
		table[index] = length;
	}

	return table;
}

/**
 * One needle, looked for in many texts (a search goes through every activity's; the inspector's find, every
 * line): a long needle's table is made once, by the needle's owner, and dropped with it.
 */
export class Needle {
	readonly text: string;
	#long: {head: string; table: Int32Array} | undefined;

	constructor(text: string) {
		this.text = text;
	}

	/** Where the needle first occurs in `haystack` at or after `from` (UTF-16 offsets), or -1: `String.indexOf`'s answer, in linear time. */
	indexIn(haystack: string, from = 0): number {
		const needle = this.text;
		if (needle.length <= nativeNeedleLimit) return haystack.indexOf(needle, from);
		const start = Math.max(0, from);
		if (haystack.length - start < needle.length) return -1;
		this.#long ??= {head: needle.slice(0, nativeNeedleLimit), table: failureTable(needle)};
		const {head, table} = this.#long;
		// No occurrence begins before the first occurrence of its start.
		const first = haystack.indexOf(head, start);
		if (first === -1 || haystack.length - first < needle.length) return -1;
		const last = needle.length;
		let matched = 0;
		for (let index = first; index < haystack.length; index++) {
			const code = haystack.charCodeAt(index);
			while (matched > 0 && needle.charCodeAt(matched) !== code) matched = table[matched - 1]!;
			if (needle.charCodeAt(matched) === code && ++matched === last) return index - last + 1;
		}

		return -1;
	}

	/** Whether `haystack` holds the needle: `String.includes`'s answer, in linear time. */
	isIn(haystack: string): boolean {
		return this.text.length <= nativeNeedleLimit ? haystack.includes(this.text) : this.indexIn(haystack) !== -1;
	}
}

/** Where `needle` first occurs in `haystack` at or after `from`, once (a needle looked for again and again is a `Needle`). */
export function indexOfText(haystack: string, needle: string, from = 0): number {
	return new Needle(needle).indexIn(haystack, from);
}

/** Whether `haystack` holds `needle`, once (see `Needle`). */
export function includesText(haystack: string, needle: string): boolean {
	return new Needle(needle).isIn(haystack);
}
