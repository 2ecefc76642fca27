/*
 * Strings kept as bytes, for the ids a log has a million of: the ids of the events reduced (`isRepeatedEvent` in
 * reduce.ts) and a pane's tool call ids (call-index.ts). A `Set` or `Map` of strings holds each id as a string of
 * its own (the copy its parsed line brought) plus an entry of its hash table, about three times the id's length;
 * here the ids' characters sit one after the other in pages of bytes, found through one table of a byte of their
 * hashes and their offsets (open addressing), with a number beside each where the table maps ids to numbers. It
 * is exact: a tag that matches is checked against the text.
 *
 * Plain data (typed arrays, numbers and a Map), so a model still posts between threads by structured clone.
 */

export type IdTable = {
	/**
	 * Per slot, a tag of the id there: eight bits of its hash that do not choose its slot, 1 to 255, with 0
	 * meaning an empty slot. A byte rather than the whole hash (a quarter of a slot's room in a table of ids
	 * alone); a probe reads the text only where the tag matches, one slot in 255 of those it passes, and growing
	 * hashes the ids again from their bytes.
	 */
	tags: Uint8Array;
	/**
	 * Per slot, where the id starts in `pages`: the page times `pageBytes`, plus where on the page. It is its
	 * length, then its characters, one byte each. The length takes one byte below `packedMark` (ids are short:
	 * a byte an id counts when there are millions), else that byte is `longFrom` and two bytes follow. An id of
	 * 8 to 255 characters all of the 64 of `sixBitCodes` (Perstack's event and run ids, tool call ids) is packed
	 * instead: `packedMark`, its length in a byte, then its characters six bits each, four in three bytes.
	 */
	offsets: Uint32Array;
	/** Per slot, the number the id maps to; undefined in a table of ids alone. */
	values: Int32Array | undefined;
	/**
	 * The ids' text, in pages of `pageBytes` that are filled one after the other: one array that doubled as it
	 * filled would leave each array it outgrew for the collector, which frees them only at its next full
	 * collection, and a long load has few of those.
	 */
	pages: Uint8Array[];
	/** Bytes of the last page in use. */
	used: number;
	/** Ids in the table, those still in `outgrown` included. */
	count: number;
	/**
	 * While the table grows: the slots it outgrew, their ids moved into the new ones a few at a time, with each id
	 * added (`moveStep`), from slot 0 up to `moved`. Until the last is moved, a lookup that the new slots do not answer
	 * asks these, which stay as they were (a probe through them still finds every id they hold). Moving a table of
	 * a million ids at once held the thread for ~0.3 s, and ~0.7 s at two million: in a live viewer, the event id
	 * table grew while keys waited (the soak, docs/performance.md). A table no id is added to any more (a stream gone
	 * quiet) keeps them until its next add: half as many bytes again as its slots, at most.
	 */
	outgrown: Slots | undefined;
	/** Slots of `outgrown` already moved. */
	moved: number;
	/**
	 * Eighths of its slots the table fills before it grows: 6 (three quarters) keeps probes short; a table that
	 * is mostly looked into for ids it holds can take 7 (see `createIdTable`).
	 */
	fill: number;
	/**
	 * Ids the byte table does not hold, with their numbers: a character past U+00FF, longer than a page, or a probe
	 * that would run too long (see `maxProbe`).
	 */
	others: Map<string, number>;
};

/** A table's arrays of slots, as `IdTable` holds them. */
type Slots = {tags: Uint8Array; offsets: Uint32Array; values: Int32Array | undefined};

const pageBytes = 0x1_00_00;
/** The longest id the pages hold: it and its length fit on one page. */
const maxLength = pageBytes - 3;
/** A length of `packedMark` or more is written in the two bytes after a byte of this value. */
const longFrom = 0xff;
/** The first byte of a packed id (see `IdTable.offsets`): a length below it is the byte itself. */
const packedMark = 0xfe;
/** A packed id has this many characters at least (fewer save no byte) and at most (its length is a byte). */
const minPacked = 8;
const maxPacked = 0xff;

/*
 * The characters a packed id is made of, by their six-bit codes: digits, lower case, upper case, `_` and `-`.
 * Perstack's ids (24 characters of lower case and digits) take 20 bytes packed instead of 25, its tool call ids
 * (`toolu_` and 24 more) 26 instead of 31: a log of 500,000 tool calls keeps five event ids and a call id a call
 * (docs/performance.md).
 */
const sixBitCodes = Uint8Array.from('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-', character => character.charCodeAt(0));
/** The six-bit code of each character code below 256, or -1 for one that is not among `sixBitCodes`. */
const sixBitOf = new Int8Array(256).fill(-1);
for (const [code, character] of sixBitCodes.entries()) sixBitOf[character] = code;

/**
 * `slots`: a power of two, the room it starts with. `fill`: eighths of its slots it fills before it grows; the
 * records of runs (storage/run-records.ts) take 7, which keeps 200,000 ids in 262,144 slots rather than twice as many.
 */
export function createIdTable(withValues: boolean, slots = 1024, fill = 6): IdTable {
	return {
		fill,
		tags: new Uint8Array(slots),
		offsets: new Uint32Array(slots),
		values: withValues ? new Int32Array(slots) : undefined,
		pages: [],
		used: pageBytes,
		count: 0,
		others: new Map(),
		outgrown: undefined,
		moved: 0,
	};
}

/**
 * Adds `id`; false when it was there already. In one pass (one hash, one probe that ends at the id or at the
 * empty slot it takes): every event of a log asks (`isRepeatedEvent`), streaming events included, and asking
 * then adding hashed each id twice and probed three times.
 */
export function addId(table: IdTable, id: string): boolean {
	const hash = byteHashOf(id);
	if (hash === notFound || (table.others.size > 0 && table.others.has(id))) {
		if (table.others.has(id)) return false;
		table.others.set(id, 0);
		return true;
	}

	const {tags} = table;
	const tag = tagOf(hash);
	const mask = tags.length - 1;
	for (let probe = 0, slot = hash & mask; probe < maxProbe; probe++, slot = (slot + 1) & mask) {
		const stored = tags[slot]!;
		if (stored === 0) {
			if (table.outgrown !== undefined && outgrownSlotOf(table, table.outgrown, id, hash) >= 0) return false;
			const offset = store(table, id);
			tags[slot] = tag;
			table.offsets[slot] = offset;
			if (table.values) table.values[slot] = 0;
			table.count++;
			added(table);
			return true;
		}

		if (stored === tag && sameText(table, table.offsets[slot]!, id)) return false;
	}

	// A probe too long (see `maxProbe`): among the others, as `placeId` puts it.
	if (table.outgrown !== undefined && outgrownSlotOf(table, table.outgrown, id, hash) >= 0) return false;
	table.others.set(id, 0);
	return true;
}

/**
 * FNV-1a over the characters of an id the byte table holds (no longer than `maxLength`, each character one byte),
 * checking as it goes that it does, in one loop; `notFound` (-1, never a hash here: a hash is kept unsigned) for
 * one it does not. Every lookup and placing hashes this way: checking first and hashing after read each id twice.
 */
function byteHashOf(id: string): number {
	if (id.length > maxLength) return notFound;
	let hash = hashBasis;
	for (let i = 0; i < id.length; i++) {
		const code = id.charCodeAt(i);
		if (code > 0xff) return notFound;
		hash = Math.imul(hash ^ code, hashPrime);
	}

	return hash >>> 0;
}

/** The number `id` maps to, if it is in the table. */
export function getId(table: IdTable, id: string): number | undefined {
	const hash = byteHashOf(id);
	const slot = hash === notFound ? notFound : slotOf(table, id, hash);
	if (slot >= 0) return table.values?.[slot] ?? 0;
	const {outgrown} = table;
	const old = hash === notFound || outgrown === undefined ? notFound : outgrownSlotOf(table, outgrown, id, hash);
	if (old >= 0) return outgrown!.values?.[old] ?? 0;
	return table.others.size === 0 ? undefined : table.others.get(id);
}

/** Maps `id` to `value` (an integer that fits in 32 bits), adding it if it is new. */
export function setId(table: IdTable, id: string, value: number): void {
	placeId(table, id, value);
}

/**
 * `setId`, and where `id`'s text is in the table's pages, for a reader that keeps the number instead of the
 * string and asks for the text again with `idAt`; undefined for an id the byte table does not hold.
 */
export function placeId(table: IdTable, id: string, value: number): number | undefined {
	// An id kept among the others stays there, wherever a probe for it would end now.
	const hash = byteHashOf(id);
	const amongOthers = hash === notFound || (table.others.size > 0 && table.others.has(id));
	const found = amongOthers ? notFound : probeOf(table, id, hash);
	if (found >= 0) {
		if (table.values) table.values[found] = value;
		return table.offsets[found];
	}

	// Not among the new slots: it may be among the outgrown ones, even where its probe through the new ran too long.
	const {outgrown} = table;
	const old = amongOthers || outgrown === undefined ? notFound : outgrownSlotOf(table, outgrown, id, hash);
	if (old >= 0) {
		if (outgrown!.values) outgrown!.values[old] = value;
		return outgrown!.offsets[old];
	}

	if (found === notFound) {
		table.others.set(id, value);
		return undefined;
	}

	return insertAt(table, id, hash, emptyAt(found), value);
}

/** Where `id`'s text is in the table's pages (`placeId`), adding it if new. */
export function idOffset(table: IdTable, id: string): number | undefined {
	const hash = byteHashOf(id);
	if (hash === notFound || (table.others.size > 0 && table.others.has(id))) return undefined;
	const found = probeOf(table, id, hash);
	if (found >= 0) return table.offsets[found];
	const old = table.outgrown === undefined ? notFound : outgrownSlotOf(table, table.outgrown, id, hash);
	if (old >= 0) return table.outgrown!.offsets[old];
	if (found === notFound) {
		table.others.set(id, 0);
		return undefined;
	}

	return insertAt(table, id, hash, emptyAt(found), 0);
}

/** Puts a new `id` (of `hash`) in the empty `slot` its probe ended at; where its text is. */
function insertAt(table: IdTable, id: string, hash: number, slot: number, value: number): number {
	const offset = store(table, id);
	table.tags[slot] = tagOf(hash);
	table.offsets[slot] = offset;
	if (table.values) table.values[slot] = value;
	table.count++;
	added(table);
	return offset;
}

/** After an id is added: a step of the growth under way, if one is, and growth when the table is `fill` eighths full. */
function added(table: IdTable): void {
	if (table.outgrown !== undefined) move(table, table.outgrown, moveStep);
	// Growing at `fill` eighths full keeps probes short.
	if (table.count * 8 > table.tags.length * table.fill) grow(table);
}

/** The id whose text is at `offset` (`placeId`). */
export function idAt(table: IdTable, offset: number): string {
	return textAt(table, offset);
}

/** Whether the id at `offset` (as `placeId` or `idOffset` gave it) is `id`, without making it a string. */
export function isIdAt(table: IdTable, offset: number, id: string): boolean {
	return sameText(table, offset, id);
}

/** Every id with its number, the byte table's in no particular order, then the others. */
export function* idEntries(table: IdTable): Generator<[string, number]> {
	for (let slot = 0; slot < table.tags.length; slot++) {
		if (table.tags[slot] === 0) continue;
		yield [textAt(table, table.offsets[slot]!), table.values?.[slot] ?? 0];
	}

	const {outgrown} = table;
	if (outgrown !== undefined) {
		for (let slot = table.moved; slot < outgrown.tags.length; slot++) {
			if (outgrown.tags[slot] === 0) continue;
			yield [textAt(table, outgrown.offsets[slot]!), outgrown.values?.[slot] ?? 0];
		}
	}

	yield* table.others;
}

/**
 * A probe looks at no more than this many slots. The hash is not seeded (the same bytes make the same table), so
 * a log could be made of ids that share one: such an id goes to the others, whose Map's hash is V8's, seeded
 * per process, rather than make each probe walk all the ids before it. At three quarters full, runs of taken
 * slots reach a few hundred now and then; this bound is past them.
 */
const maxProbe = 1024;
const notFound = -1;

/** The slot holding `id`, or `notFound`: `probeOf`'s answer without where the id would go. */
function slotOf(table: IdTable, id: string, hash: number): number {
	const found = probeOf(table, id, hash);
	return found >= 0 ? found : notFound;
}

/**
 * One probe for `id` that also finds where it would go: its slot (0 or more) when the table holds it, else
 * `emptyFrom - slot` for the empty slot that ends the probe (read with `emptyAt`), or `notFound` past `maxProbe`.
 * A new id was looked for (`slotOf`) and then placed (`emptySlot`) in two probes, each after its own hash: a new
 * run's id in the records (storage/run-records.ts) took three hashes and three probes (docs/performance.md).
 * `slots`: the table's own, or the ones it outgrew while it grows (`outgrownSlotOf`).
 */
function probeOf(table: IdTable, id: string, hash: number, slots: Pick<Slots, 'tags' | 'offsets'> = table): number {
	const {tags, offsets} = slots;
	const tag = tagOf(hash);
	const mask = tags.length - 1;
	for (let probe = 0, slot = hash & mask; probe < maxProbe; probe++, slot = (slot + 1) & mask) {
		const stored = tags[slot]!;
		if (stored === 0) return emptyFrom - slot;
		if (stored === tag && sameText(table, offsets[slot]!, id)) return slot;
	}

	return notFound;
}

/**
 * The slot of `outgrown` (the slots a growing table outgrew) holding `id`, or `notFound`; `notFound` too for one
 * already moved, which the new slots or the others answer for now.
 */
function outgrownSlotOf(table: IdTable, outgrown: Slots, id: string, hash: number): number {
	const found = probeOf(table, id, hash, outgrown);
	// An empty slot's answer and `notFound` are below 0, so below `moved` too.
	return found >= table.moved ? found : notFound;
}

/** `probeOf`'s answers below `notFound` are empty slots: -2 is slot 0, -3 slot 1, … */
const emptyFrom = -2;

function emptyAt(probed: number): number {
	return emptyFrom - probed;
}

/** The first empty slot of `hash`'s probe, or `notFound` past `maxProbe`. */
function emptySlot(tags: Uint8Array, hash: number): number {
	const mask = tags.length - 1;
	for (let probe = 0, slot = hash & mask; probe < maxProbe; probe++, slot = (slot + 1) & mask) if (tags[slot] === 0) return slot;
	return notFound;
}

/** The hash's top eight bits, which choose no slot until a table passes 2^24 slots; never 0 (an empty slot). */
function tagOf(hash: number): number {
	return hash >>> 24 || 1;
}

const hashBasis = 0x81_1c_9d_c5;
const hashPrime = 0x01_00_01_93;

/** `byteHashOf` of the id stored at `offset`, from its bytes (each one character). */
function hashAt(table: IdTable, offset: number): number {
	const page = table.pages[Math.floor(offset / pageBytes)]!;
	const at = offset % pageBytes;
	const start = textStart(page, at);
	const length = lengthAt(page, at);
	let hash = hashBasis;
	if (page[at] === packedMark) {
		// A group of three bytes at a time, its four characters taken from it: the table's growth hashes every id
		// again, and reading each character's group afresh made it the largest part of the event id table's time.
		for (let i = 0, group = start; i < length; group += 3) {
			const bits = page[group]! | (page[group + 1]! << 8) | (page[group + 2]! << 16);
			const last = Math.min(length, i + 4);
			for (let shift = 0; i < last; i++, shift += 6) hash = Math.imul(hash ^ sixBitCodes[(bits >> shift) & 63]!, hashPrime);
		}

		return hash;
	}

	for (let i = start; i < start + length; i++) hash = Math.imul(hash ^ page[i]!, hashPrime);
	return hash;
}

/** The character code of a packed id's `i`th character, its characters starting at `start`. */
function packedCharAt(page: Uint8Array, start: number, i: number): number {
	const group = start + (i >> 2) * 3;
	const bits = page[group]! | (page[group + 1]! << 8) | (page[group + 2]! << 16);
	return sixBitCodes[(bits >> ((i & 3) * 6)) & 63]!;
}

function sameText(table: IdTable, offset: number, id: string): boolean {
	const page = table.pages[Math.floor(offset / pageBytes)]!;
	const at = offset % pageBytes;
	if (lengthAt(page, at) !== id.length) return false;
	const start = textStart(page, at);
	if (page[at] === packedMark) {
		for (let i = 0; i < id.length; i++) if (packedCharAt(page, start, i) !== id.charCodeAt(i)) return false;
		return true;
	}

	for (let i = 0; i < id.length; i++) if (page[start + i] !== id.charCodeAt(i)) return false;
	return true;
}

function textAt(table: IdTable, offset: number): string {
	const page = table.pages[Math.floor(offset / pageBytes)]!;
	const at = offset % pageBytes;
	const length = lengthAt(page, at);
	const start = textStart(page, at);
	if (page[at] === packedMark) {
		codes.length = length;
		for (let i = 0; i < length; i++) codes[i] = packedCharAt(page, start, i);
		return String.fromCharCode(...codes);
	}

	// A piece of characters at a time rather than one: the records of runs ask for ids and expert keys again per
	// read (storage/record-views.ts), and a string made a character at a time is as many strings. The codes go through
	// a plain array: spreading a typed array walks its iterator, several times slower.
	let id = '';
	for (let from = start; from < start + length; from += textPiece) {
		const end = Math.min(start + length, from + textPiece);
		codes.length = end - from;
		for (let i = from; i < end; i++) codes[i - from] = page[i]!;
		id += String.fromCharCode(...codes);
	}

	return id;
}

/** Characters of an id made into a string at once: few enough to be a call's arguments. */
const textPiece = 4096;
const codes: number[] = [];

function lengthAt(page: Uint8Array, at: number): number {
	const first = page[at]!;
	if (first < packedMark) return first;
	return first === packedMark ? page[at + 1]! : page[at + 1]! + page[at + 2]! * 256;
}

function textStart(page: Uint8Array, at: number): number {
	const first = page[at]!;
	if (first < packedMark) return at + 1;
	return first === packedMark ? at + 2 : at + 3;
}

/** Whether `id` is stored packed (see `IdTable.offsets`). */
function packs(id: string): boolean {
	if (id.length < minPacked || id.length > maxPacked) return false;
	for (let i = 0; i < id.length; i++) {
		const code = id.charCodeAt(i);
		if (code > 0xff || sixBitOf[code]! < 0) return false;
	}

	return true;
}

function storedBytes(id: string, packed: boolean): number {
	if (packed) return 2 + ((id.length + 3) >> 2) * 3;
	return (id.length < packedMark ? 1 : 3) + id.length;
}

function store(table: IdTable, id: string): number {
	const packed = packs(id);
	const bytes = storedBytes(id, packed);
	let page = table.pages.at(-1);
	if (page === undefined || table.used + bytes > page.length) {
		// A table of a few ids starts with a small page (a model has one per pane that makes many calls); the pages
		// after it are whole ones. The small page is kept, not copied into a whole one when it fills: that copy was
		// a path of its own, and the next page's path then ran first ~3,000 ids later, after the event id table's
		// `addId` was optimised without feedback for it, which threw the optimised code away to compile it again.
		page = new Uint8Array(table.pages.length === 0 ? Math.max(firstPageBytes(table), bytes) : pageBytes);
		table.pages.push(page);
		table.used = 0;
	}

	const at = table.used;
	table.used = at + bytes;
	if (packed) {
		page[at] = packedMark;
		page[at + 1] = id.length;
		storePacked(page, at + 2, id);
		return (table.pages.length - 1) * pageBytes + at;
	}

	let start = at + 1;
	if (id.length < packedMark) page[at] = id.length;
	else {
		page[at] = longFrom;
		page[at + 1] = id.length & 0xff;
		page[at + 2] = id.length >>> 8;
		start = at + 3;
	}

	for (let i = 0; i < id.length; i++) page[start + i] = id.charCodeAt(i);
	return (table.pages.length - 1) * pageBytes + at;
}

/** Writes `id`'s characters from `start`, four six-bit codes in three bytes, the last group's missing ones 0. */
function storePacked(page: Uint8Array, start: number, id: string): void {
	for (let i = 0, group = start; i < id.length; i += 4, group += 3) {
		let bits = 0;
		for (let k = 0; k < 4 && i + k < id.length; k++) bits |= sixBitOf[id.charCodeAt(i + k)]! << (k * 6);
		page[group] = bits & 0xff;
		page[group + 1] = (bits >> 8) & 0xff;
		page[group + 2] = (bits >> 16) & 0xff;
	}
}

function firstPageBytes(table: IdTable): number {
	return Math.min(pageBytes, table.tags.length * 8);
}

/**
 * Doubles the table's slots. A small table's ids move at once; a larger one's move `moveStep` slots with each id
 * added after (see `IdTable.outgrown`), all of them before it is `fill` eighths full again, so that no add
 * holds the thread for the whole table.
 */
function grow(table: IdTable): void {
	if (table.outgrown !== undefined) move(table, table.outgrown, table.outgrown.tags.length);
	const {tags, offsets, values} = table;
	const size = tags.length * 2;
	table.tags = new Uint8Array(size);
	table.offsets = new Uint32Array(size);
	table.values = values ? new Int32Array(size) : undefined;
	table.outgrown = {tags, offsets, values};
	table.moved = 0;
	move(table, table.outgrown, tags.length < movedAtOnceBelow ? tags.length : moveStep);
}

/** Tables of fewer slots than this move all their ids when they grow. */
const movedAtOnceBelow = 1024;
/**
 * Slots of the outgrown ones moved with each id added: a table that grows from S slots to 2S moves them in S / 8
 * adds, well before it holds `fill` eighths of 2S (S × 3 / 4 adds later at the least), and no add moves more
 * than eight ids.
 */
const moveStep = 8;

/** Moves `outgrown`'s slots from `table.moved` on, `slots` of them (fewer at its end); lets it go after the last. */
function move(table: IdTable, outgrown: Slots, slots: number): void {
	const {tags, offsets, values} = outgrown;
	const end = Math.min(tags.length, table.moved + slots);
	for (let i = table.moved; i < end; i++) {
		if (tags[i] === 0) continue;
		const hash = hashAt(table, offsets[i]!);
		const slot = emptySlot(table.tags, hash);
		if (slot === notFound) {
			table.others.set(textAt(table, offsets[i]!), values?.[i] ?? 0);
			table.count--;
			continue;
		}

		table.tags[slot] = tags[i]!;
		table.offsets[slot] = offsets[i]!;
		if (values && table.values) table.values[slot] = values[i]!;
	}

	table.moved = end;
	if (end < tags.length) return;
	table.outgrown = undefined;
	table.moved = 0;
	const buffers = [tags.buffer, offsets.buffer, ...(values ? [values.buffer] : [])];
	if (buffers.reduce((sum, buffer) => sum + buffer.byteLength, 0) >= letGoFrom) letGo(buffers);
}

/**
 * Outgrown arrays of this many bytes or more are let go at once (`letGo`); smaller ones are left to the
 * collector: letting go of every growth made the 124 MB realistic log load measurably slower, for arrays too
 * small to matter to the peak (docs/performance.md).
 */
const letGoFrom = 4 * 1024 * 1024;

/**
 * Frees the arrays a table outgrew at the collector's next minor collection rather than its next full one. The
 * old arrays have lived as long as the table, so the collector keeps them among old objects, which a long load
 * collects rarely: the largest of them (megabytes at a million ids) stayed allocated beside the new ones. Moved
 * into a new, unreferenced buffer (a transfer moves the bytes, it does not copy them), they go with the young
 * objects.
 */
function letGo(buffers: ArrayBufferLike[]): void {
	const owned = buffers.filter(buffer => buffer instanceof ArrayBuffer);
	structuredClone(owned, {transfer: owned});
}
