import {describe, expect, it} from 'vitest';
import {SharedValuesById} from './shared-values-by-id.js';

type Info = {model: string; answer: string | undefined};

function table(): SharedValuesById<Info> {
	return new SharedValuesById<Info>(info => (info.answer === undefined ? info.model : undefined));
}

describe('values by id, shared where their key is the same', () => {
	it('reads as a Map: each id its last value, in the order the ids were first set', () => {
		const values = table();
		const map = new Map<string, Info>();
		const ids = ['run-b', 'ukhxt1gzq19i1floif0uejbw', 'run-a', 'ünïcode-ид', 'x'.repeat(70_000), ''];
		for (const [index, id] of ids.entries()) {
			const info = {model: `model-${index % 2}`, answer: index === 2 ? 'yes' : undefined};
			values.set(id, info);
			map.set(id, info);
		}

		values.set('run-b', {model: 'model-9', answer: undefined});
		map.set('run-b', {model: 'model-9', answer: undefined});
		expect(values.size).toBe(map.size);
		expect([...values]).toEqual([...map]);
		expect([...values.keys()]).toEqual([...map.keys()]);
		for (const id of ids) expect(values.get(id)).toEqual(map.get(id));
		expect(values.has('run-c')).toBe(false);
		expect(values.get('run-c')).toBeUndefined();
	});

	it('keeps one value for the many ids whose key is the same, and its own for a value without a key', () => {
		const values = table();
		for (let i = 0; i < 10_000; i++) values.set(`run-${i}`, {model: 'claude', answer: undefined});
		values.set('asked', {model: 'claude', answer: 'yes'});
		expect(values.size).toBe(10_001);
		expect(values.get('run-0')).toBe(values.get('run-9999'));
		expect(values.get('asked')).toEqual({model: 'claude', answer: 'yes'});
		expect(new Set(values.values()).size).toBe(2);
	});
});
