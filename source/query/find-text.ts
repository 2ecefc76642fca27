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

/** KMP tables of the last few long needles: a search asks with the same one text after text. */
const tables = new Map<string, {head: string; table: Int32Array}>();
const tablesKept = 8;

function longNeedle(needle: string): {head: string; table: Int32Array} {
	let known = tables.get(needle);
	if (known) return known;
	known = {head: needle.slice(0, nativeNeedleLimit), table: failureTable(needle)};
	tables.set(needle, known);
	if (tables.size > tablesKept) tables.delete(tables.keys().next().value!);
	return known;
}

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

/** Where `needle` first occurs in `haystack` at or after `from` (UTF-16 offsets), or -1: `String.indexOf`'s answer, in linear time. */
export function indexOfText(haystack: string, needle: string, from = 0): number {
	if (needle.length <= nativeNeedleLimit) return haystack.indexOf(needle, from);
	const start = Math.max(0, from);
	if (haystack.length - start < needle.length) return -1;
	const {head, table} = longNeedle(needle);
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

/** Whether `haystack` holds `needle`: `String.includes`'s answer, in linear time. */
export function includesText(haystack: string, needle: string): boolean {
	return needle.length <= nativeNeedleLimit ? haystack.includes(needle) : indexOfText(haystack, needle) !== -1;
}
