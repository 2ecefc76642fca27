/*
 * The ids of the events reduced so far, for `isRepeatedEvent` (reduce.ts): every Perstack event but the
 * streaming ones, so a log of a million tool calls holds two million. A `Set` of strings holds each id as a
 * string of its own (the copy its parsed line brought) plus an entry of its hash table, about three times the
 * id's length; here the ids' characters sit one after the other in one byte array, found through one table of
 * their hashes and offsets (open addressing). It is exact: a hash that matches is checked against the text.
 *
 * Plain data (typed arrays, numbers and a Set), so a model still posts between threads by structured clone.
 */

export type EventIds = {
	/** Per slot, the hash of the id there, with 0 meaning an empty slot (a hash of 0 is stored as 1). */
	hashes: Int32Array;
	/** Per slot, where the id starts in `text`: its length in two bytes, then its characters, one byte each. */
	offsets: Uint32Array;
	text: Uint8Array;
	/** Bytes of `text` in use. */
	used: number;
	/** Ids in the table. */
	count: number;
	/** Ids the table does not hold: a character past U+00FF, or longer than two bytes can say. */
	others: Set<string>;
};

const initialSlots = 1024;
const maxLength = 0xff_ff;

export function createEventIds(): EventIds {
	return {hashes: new Int32Array(initialSlots), offsets: new Uint32Array(initialSlots), text: new Uint8Array(initialSlots * 8), used: 0, count: 0, others: new Set()};
}

/** Adds `id`; false when it was there already. */
export function addEventId(ids: EventIds, id: string): boolean {
	if (!fitsTable(id)) {
		if (ids.others.has(id)) return false;
		ids.others.add(id);
		return true;
	}

	const hash = hashOf(id);
	const mask = ids.hashes.length - 1;
	let slot = hash & mask;
	for (;;) {
		const stored = ids.hashes[slot]!;
		if (stored === 0) break;
		if (stored === hash && sameText(ids, ids.offsets[slot]!, id)) return false;
		slot = (slot + 1) & mask;
	}

	ids.hashes[slot] = hash;
	ids.offsets[slot] = store(ids, id);
	ids.count++;
	// Growing at three quarters full keeps probes short.
	if (ids.count * 4 > ids.hashes.length * 3) grow(ids);
	return true;
}

export function hasEventId(ids: EventIds, id: string): boolean {
	if (!fitsTable(id)) return ids.others.has(id);
	const hash = hashOf(id);
	const mask = ids.hashes.length - 1;
	for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
		const stored = ids.hashes[slot]!;
		if (stored === 0) return false;
		if (stored === hash && sameText(ids, ids.offsets[slot]!, id)) return true;
	}
}

function fitsTable(id: string): boolean {
	if (id.length > maxLength) return false;
	for (let i = 0; i < id.length; i++) if (id.charCodeAt(i) > 0xff) return false;
	return true;
}

/** FNV-1a over the characters, never 0 (0 marks an empty slot). */
function hashOf(id: string): number {
	let hash = 0x81_1c_9d_c5;
	for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01_00_01_93);
	// As the Int32Array stores it: an id of no characters leaves the offset basis, which is past 2^31.
	hash |= 0;
	return hash === 0 ? 1 : hash;
}

function sameText(ids: EventIds, offset: number, id: string): boolean {
	const {text} = ids;
	if (text[offset]! + text[offset + 1]! * 256 !== id.length) return false;
	for (let i = 0; i < id.length; i++) if (text[offset + 2 + i] !== id.charCodeAt(i)) return false;
	return true;
}

function store(ids: EventIds, id: string): number {
	const need = ids.used + 2 + id.length;
	if (need > ids.text.length) {
		const bigger = new Uint8Array(Math.max(need, ids.text.length * 2));
		bigger.set(ids.text.subarray(0, ids.used));
		ids.text = bigger;
	}

	const offset = ids.used;
	ids.text[offset] = id.length & 0xff;
	ids.text[offset + 1] = id.length >>> 8;
	for (let i = 0; i < id.length; i++) ids.text[offset + 2 + i] = id.charCodeAt(i);
	ids.used = need;
	return offset;
}

function grow(ids: EventIds): void {
	const {hashes, offsets} = ids;
	const size = hashes.length * 2;
	const mask = size - 1;
	ids.hashes = new Int32Array(size);
	ids.offsets = new Uint32Array(size);
	for (let i = 0; i < hashes.length; i++) {
		const hash = hashes[i]!;
		if (hash === 0) continue;
		let slot = hash & mask;
		while (ids.hashes[slot] !== 0) slot = (slot + 1) & mask;
		ids.hashes[slot] = hash;
		ids.offsets[slot] = offsets[i]!;
	}
}
