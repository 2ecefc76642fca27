import {describe, expect, it} from 'vitest';
import {pageSlots, uint32Column} from './column.js';
import {float64Columns, int32Columns, uint8Columns} from './record-layout.js';

/*
 * A record's columns keep a value per slot in pages (record-layout.ts): what a slot holds must not depend on which page
 * it is in, nor be cut to fit the column, for the values a run's record keeps.
 */

describe('record columns', () => {
	it('keep each slot its own value on both sides of a page boundary', () => {
		const {rev} = int32Columns();
		rev.grow();
		rev.grow();
		const slots = [0, pageSlots - 1, pageSlots, 2 * pageSlots - 1];
		for (const slot of slots) rev.set(slot, slot + 1);
		expect(slots.map(slot => rev.get(slot))).toEqual([1, pageSlots, pageSlots + 1, 2 * pageSlots]);
	});

	it('keep a timestamp in milliseconds and a negative interned number whole, in the columns of their type', () => {
		const {startedAt} = float64Columns();
		const {parentRunId} = int32Columns();
		const expertKey = uint32Column();
		const {revived} = uint8Columns();
		for (const column of [startedAt, parentRunId, expertKey, revived]) column.grow();
		startedAt.set(pageSlots - 1, 1_700_000_000_123.5);
		// -1 is how an interned string says null (interned.ts).
		parentRunId.set(pageSlots - 1, -1);
		expertKey.set(pageSlots - 1, 0xff_ff_ff_ff);
		revived.set(pageSlots - 1, 2);
		expect([startedAt.get(pageSlots - 1), parentRunId.get(pageSlots - 1), expertKey.get(pageSlots - 1), revived.get(pageSlots - 1)]).toEqual([
			1_700_000_000_123.5, -1, 0xff_ff_ff_ff, 2,
		]);
	});
});
