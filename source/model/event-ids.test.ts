import {describe, expect, it} from 'vitest';
import {addEventId, createEventIds, hasEventId} from './event-ids.js';

describe('event ids', () => {
	it('tells an id seen before from a new one, across the table growing many times', () => {
		const ids = createEventIds();
		for (let i = 0; i < 50_000; i++) expect(addEventId(ids, `e-${i}`)).toBe(true);
		for (let i = 0; i < 50_000; i += 997) expect(addEventId(ids, `e-${i}`)).toBe(false);
		expect(hasEventId(ids, 'e-49999')).toBe(true);
		expect(hasEventId(ids, 'e-50000')).toBe(false);
		expect(ids.count).toBe(50_000);
	});

	it('keeps ids apart that differ only in length or in a late character', () => {
		const ids = createEventIds();
		expect(addEventId(ids, 'abc')).toBe(true);
		expect(addEventId(ids, 'abcd')).toBe(true);
		expect(addEventId(ids, 'abd')).toBe(true);
		expect(addEventId(ids, 'ab')).toBe(true);
		expect(addEventId(ids, '')).toBe(true);
		expect(addEventId(ids, '')).toBe(false);
		expect(addEventId(ids, 'abc')).toBe(false);
	});

	it('holds ids the byte table cannot: characters past U+00FF, and very long ones', () => {
		const ids = createEventIds();
		const long = 'x'.repeat(70_000);
		for (const id of ['é-1', 'イベント-1', '😀', long]) {
			expect(addEventId(ids, id)).toBe(true);
			expect(addEventId(ids, id)).toBe(false);
		}

		expect(hasEventId(ids, 'イベント-2')).toBe(false);
		expect(hasEventId(ids, `${long}y`)).toBe(false);
	});

	it('is plain data: a structured clone goes on telling the same ids apart', () => {
		const ids = createEventIds();
		for (let i = 0; i < 3000; i++) addEventId(ids, `id-${i}`);
		addEventId(ids, 'ид-1');
		const copy = structuredClone(ids);
		expect(addEventId(copy, 'id-1234')).toBe(false);
		expect(addEventId(copy, 'ид-1')).toBe(false);
		expect(addEventId(copy, 'id-3000')).toBe(true);
	});
});
