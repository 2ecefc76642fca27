import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {addId, createIdTable, getId, idAt, idEntries, idOffset, placeId, setId, type IdTable} from './id-table.js';

function hasId(table: IdTable, id: string): boolean {
	return getId(table, id) !== undefined;
}

describe('id table', () => {
	it('tells an id seen before from a new one, across the table growing many times', () => {
		const ids = createIdTable(false);
		for (let i = 0; i < 50_000; i++) expect(addId(ids, `e-${i}`)).toBe(true);
		for (let i = 0; i < 50_000; i += 997) expect(addId(ids, `e-${i}`)).toBe(false);
		expect(hasId(ids, 'e-49999')).toBe(true);
		expect(hasId(ids, 'e-50000')).toBe(false);
		// Well spread, no probe runs long enough to send an id to the others.
		expect([ids.count, ids.others.size]).toEqual([50_000, 0]);
	});

	it('keeps ids apart that differ only in length or in a late character', () => {
		const ids = createIdTable(false);
		expect(addId(ids, 'abc')).toBe(true);
		expect(addId(ids, 'abcd')).toBe(true);
		expect(addId(ids, 'abd')).toBe(true);
		expect(addId(ids, 'ab')).toBe(true);
		expect(addId(ids, '')).toBe(true);
		expect(addId(ids, '')).toBe(false);
		expect(addId(ids, 'abc')).toBe(false);
	});

	it('holds ids the byte table cannot: characters past U+00FF, and very long ones', () => {
		const ids = createIdTable(false);
		const long = 'x'.repeat(70_000);
		for (const id of ['é-1', 'イベント-1', '😀', long]) {
			expect(addId(ids, id)).toBe(true);
			expect(addId(ids, id)).toBe(false);
		}

		expect(hasId(ids, 'イベント-2')).toBe(false);
		expect(hasId(ids, `${long}y`)).toBe(false);
	});

	it('is plain data: a structured clone goes on telling the same ids apart', () => {
		const ids = createIdTable(false);
		for (let i = 0; i < 3000; i++) addId(ids, `id-${i}`);
		addId(ids, 'ид-1');
		const copy = structuredClone(ids);
		expect(addId(copy, 'id-1234')).toBe(false);
		expect(addId(copy, 'ид-1')).toBe(false);
		expect(addId(copy, 'id-3000')).toBe(true);
	});

	it('maps ids to numbers, a later one replacing an earlier, and lists them all', () => {
		const table = createIdTable(true, 4);
		for (let i = 0; i < 1000; i++) setId(table, `call-${i}`, i);
		setId(table, 'call-7', 70_000);
		setId(table, 'вызов', 5);
		expect([getId(table, 'call-7'), getId(table, 'call-999'), getId(table, 'call-1000'), getId(table, 'вызов')]).toEqual([70_000, 999, undefined, 5]);
		const entries = new Map(idEntries(table));
		expect(entries.size).toBe(1001);
		expect([entries.get('call-0'), entries.get('call-7'), entries.get('вызов')]).toEqual([0, 70_000, 5]);
	});

	it('keeps ids too long to share a page, each on a page of its own', () => {
		const table = createIdTable(true, 4);
		const ids = ['a', 'b', 'c'].map(letter => letter.repeat(40_000));
		ids.forEach((id, index) => setId(table, id, index));
		setId(table, 'short', 9);
		expect([...ids, 'short', 'a'.repeat(39_999)].map(id => getId(table, id))).toEqual([0, 1, 2, 9, undefined]);
		expect(table.pages.length).toBeGreaterThanOrEqual(3);
	});

	it('keeps an id whose probe would run long among the others, and finds it there: a log of ids made to share one hash stays linear', () => {
		const table = createIdTable(true, 1024);
		setId(table, 'x', 1);
		// Every slot taken by that id, whatever its tag, as a log of ids that share a hash would leave it.
		table.tags.fill(1);
		table.offsets.fill(0);
		setId(table, 'crafted', 7);
		expect(table.others.get('crafted')).toBe(7);
		expect([getId(table, 'crafted'), hasId(table, 'crafted'), addId(table, 'crafted'), hasId(table, 'other')]).toEqual([7, true, false, false]);
		setId(table, 'crafted', 8);
		expect(getId(table, 'crafted')).toBe(8);
	});

	it('keeps ids of every length up to a page, the short ones with a one-byte length and the rest with three, across growing', () => {
		const table = createIdTable(true, 4);
		const lengths = [0, 1, 253, 254, 255, 256, 300, 65_532, 65_533];
		const ids = lengths.flatMap(length => ['a', 'b'].map(last => 'x'.repeat(Math.max(0, length - 1)) + (length > 0 ? last : '')));
		ids.forEach((id, index) => setId(table, id, index));
		// Many more ids after them, so the table grows several times and hashes the long ones again from their bytes.
		for (let i = 0; i < 5000; i++) setId(table, `call-${i}`, -i);
		expect(ids.map(id => getId(table, id))).toEqual(ids.map((id, index) => (id === '' ? ids.lastIndexOf('') : index)));
		expect([getId(table, 'x'.repeat(255)), getId(table, 'x'.repeat(254)), getId(table, 'call-4999')]).toEqual([undefined, undefined, -4999]);
		expect(table.others.size).toBe(0);
		const entries = new Map(idEntries(table));
		expect([entries.get(ids[6]!), entries.get(ids[15]!), entries.size]).toEqual([6, 15, 5000 + ids.length - 1]);
		// One character more than a page holds with its length: kept among the others.
		setId(table, 'y'.repeat(65_534), 1);
		expect([table.others.size, getId(table, 'y'.repeat(65_534))]).toEqual([1, 1]);
	});

	it('lets go at once of the large arrays it outgrows, and goes on finding every id in the new ones', () => {
		// 2^19 slots of 9 bytes (tag, offset, number): 4.5 MB, past the size from which they are let go.
		const slots = 1 << 19;
		const table = createIdTable(true, slots);
		const small = createIdTable(true, 4);
		const outgrown = [table.tags, table.offsets, table.values];
		const smallOutgrown = [small.tags, small.offsets, small.values];
		// Grown at three quarters full; its ids all moved after another eighth of its slots' worth were added.
		const ids = (slots * 3) / 4 + slots / 8;
		for (let i = 0; i <= ids; i++) setId(table, `call-${i}`, i);
		for (let i = 0; i < 4; i++) setId(small, `call-${i}`, i);
		expect(table.outgrown).toBeUndefined();
		// A transferred buffer is detached: its arrays read as empty, their bytes are no longer the table's to hold.
		expect(outgrown.map(array => array?.length)).toEqual([0, 0, 0]);
		expect(smallOutgrown.map(array => array?.length)).toEqual([4, 4, 4]);
		expect([getId(table, 'call-0'), getId(table, `call-${ids}`), table.tags.length]).toEqual([0, ids, slots * 2]);
		expect([getId(small, 'call-3'), small.tags.length]).toEqual([3, 8]);
	});

	it('the event id table held a live viewer ~0.7 s at 1.8 M events while it grew: a large table moves its ids a few with each add, and answers for all of them meanwhile', () => {
		const slots = 1 << 14;
		const table = createIdTable(true, slots);
		const oracle = new Map<string, number>();
		const set = (id: string, value: number) => {
			setId(table, id, value);
			oracle.set(id, value);
		};

		for (let i = 0; i < (slots * 3) / 4; i++) set(`call-${i}`, i);
		expect(table.outgrown).toBeUndefined();
		// The add that grows the table moves no more than a step of its ids, not 12,288 of them.
		set('the-one-that-grows-it', 1);
		expect(table.tags.length).toBe(slots * 2);
		expect(table.outgrown?.tags.length).toBe(slots);
		expect(table.moved).toBeLessThanOrEqual(8);
		let adds = 0;
		while (table.outgrown !== undefined) {
			const moved = table.moved;
			// New ids, ids already there (moved or not), and numbers changed on both kinds, mid-way.
			if (adds === 300) {
				expect(new Map(idEntries(table))).toEqual(oracle);
				const copy = structuredClone(table);
				expect([getId(copy, 'call-5'), getId(copy, 'call-12000'), addId(copy, 'call-12001'), addId(copy, 'new')]).toEqual([5, 12_000, false, true]);
			}

			expect(addId(table, `call-${adds * 7}`)).toBe(false);
			set(`call-${adds * 11}`, -adds - 1);
			set(`new-${adds}`, adds);
			adds++;
			expect(table.moved === 0 || table.moved - moved <= 16).toBe(true);
		}

		// All of them moved in fewer adds than the table takes before it grows again.
		expect(adds * 2).toBeLessThan(slots / 2);
		expect([table.tags.length, table.count + table.others.size]).toEqual([slots * 2, oracle.size]);
		expect(new Map(idEntries(table))).toEqual(oracle);
		expect([...oracle].filter(([id, value]) => getId(table, id) !== value)).toEqual([]);
		expect([getId(table, 'call-none'), addId(table, 'new-5'), addId(table, 'brand-new')]).toEqual([undefined, false, true]);
	});

	it('finds an id not yet moved out of the outgrown slots even where its probe through the new ones runs too long', () => {
		const table = createIdTable(true, 1024);
		for (let i = 0; i <= 768; i++) setId(table, `call-${i}`, i);
		expect(table.outgrown?.tags.length).toBe(1024);
		// Every new slot taken by one id, as a log of ids that share a hash would leave it: any probe there runs long.
		table.tags.fill(1);
		table.offsets.fill(0);
		const unmoved = 'call-700';
		expect(getId(table, unmoved)).toBe(700);
		// Set and added again, it stays where it is, not a second time among the others.
		setId(table, unmoved, -7);
		expect([addId(table, unmoved), getId(table, unmoved), table.others.has(unmoved)]).toEqual([false, -7, false]);
	});

	it("packs ids of digits, letters, '_' and '-': a Perstack id takes 20 bytes, and every id reads back as it was", () => {
		// Room enough from the start for the first page to be a whole one, which then holds all of them.
		const table = createIdTable(true, 8192);
		// As Perstack's event and run ids: 24 characters of lower case and digits (here an underscore too).
		const ids = Array.from({length: 1000}, (_, i) => `k${i.toString(36).padStart(23, '_')}`);
		ids.forEach((id, index) => setId(table, id, index));
		expect([table.pages.length, table.used]).toEqual([1, ids.length * 20]);
		// A tool call id, ids of each length around a group of four, one of every character, and ones just too short or
		// too long to pack, or with a character that does not pack.
		const others = [
			'toolu_01YvsPJ3X7fnaGvmvHAwwNTu',
			'abcdefg',
			'abcdefgh',
			'abcdefghi',
			'abcdefghij',
			'abcdefghijk',
			'Z'.repeat(255),
			'Z'.repeat(256),
			'abc.defgh',
			'abcdéfgh',
		];
		others.push('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-');
		others.forEach((id, index) => setId(table, id, 5000 + index));
		const entries = new Map(idEntries(table));
		expect([...ids, ...others].map(id => entries.get(id))).toEqual([...ids.map((_, index) => index), ...others.map((_, index) => 5000 + index)]);
		expect([getId(table, 'abcdefgi'), getId(table, 'toolu_01YvsPJ3X7fnaGvmvHAwwNTv'), getId(table, 'Z'.repeat(254))]).toEqual([
			undefined,
			undefined,
			undefined,
		]);
		expect(idAt(table, placeId(table, 'toolu_01YvsPJ3X7fnaGvmvHAwwNTu', 1)!)).toBe('toolu_01YvsPJ3X7fnaGvmvHAwwNTu');
	});

	it('answers as a Map does for packed ids too, across the table growing', () => {
		const id = fc.string({unit: fc.constantFrom('a', 'b', 'Z', '0', '_', '-'), minLength: 6, maxLength: 14});
		fc.assert(
			fc.property(fc.array(fc.tuple(fc.boolean(), id), {maxLength: 2000}), steps => {
				const table = createIdTable(false, 4);
				const oracle = new Set<string>();
				for (const [add, key] of steps) {
					if (add) {
						expect(addId(table, key)).toBe(!oracle.has(key));
						oracle.add(key);
					} else expect(hasId(table, key)).toBe(oracle.has(key));
				}

				expect(new Set([...idEntries(table)].map(([key]) => key))).toEqual(oracle);
			}),
			{numRuns: 40},
		);
	});

	it('answers as a Map does for any run of ids set and looked up: ids that share a tag or a slot are told apart by their text', () => {
		// Two-character ids of a small alphabet in a table that starts at 4 slots: thousands of ids, so slots'
		// tags match other ids' often, and probes run past many slots.
		const id = fc.string({unit: fc.constantFrom('a', 'b', 'c', 'd', 'é', 'ж', '0', '1'), maxLength: 6});
		const step = fc.tuple(fc.boolean(), id, fc.integer({min: -1000, max: 1000}));
		fc.assert(
			fc.property(fc.array(step, {maxLength: 3000}), steps => {
				const table = createIdTable(true, 4);
				const oracle = new Map<string, number>();
				for (const [set, key, value] of steps) {
					if (set) {
						setId(table, key, value);
						oracle.set(key, value);
					} else expect(getId(table, key)).toBe(oracle.get(key));
				}

				expect(new Map(idEntries(table))).toEqual(oracle);
				expect(table.count + table.others.size).toBe(oracle.size);
			}),
			{numRuns: 60},
		);
	});

	it('gives each text (an expert key of the records) one place, found again across growing, and none to a text it cannot hold', () => {
		// Placed in the one probe that looked for it: the place found first is the place kept, whatever came after.
		const id = fc.string({unit: fc.constantFrom('a', 'b', 'c', 'é', 'ж', '0'), maxLength: 5});
		fc.assert(
			fc.property(fc.array(id, {maxLength: 2000}), ids => {
				const table = createIdTable(false, 4);
				const places = new Map<string, number | undefined>();
				for (const key of ids) {
					const offset = idOffset(table, key);
					if (places.has(key)) expect(offset).toBe(places.get(key));
					else places.set(key, offset);
					if (offset === undefined) expect(key).toMatch(/ж/);
					else expect(idAt(table, offset)).toBe(key);
				}

				for (const [key, offset] of places) expect(idOffset(table, key)).toBe(offset);
			}),
			{numRuns: 40},
		);
	});
});
