import {describe, expect, it} from 'vitest';
import {lazily, zod} from './zod.js';

/* zod and the schemas are loaded and built on first use, and only once. */

describe('lazily', () => {
	it('builds nothing until the value is first asked for', () => {
		let builds = 0;
		lazily(() => ++builds);
		expect(builds).toBe(0);
	});

	it('builds the value once and gives the same one every time', () => {
		let builds = 0;
		const value = lazily(() => ({build: ++builds}));
		const first = value();
		expect(value()).toBe(first);
		expect(value()).toBe(first);
		expect(builds).toBe(1);
	});

	it('keeps a value that is undefined rather than building it again', () => {
		let builds = 0;
		const value = lazily(() => {
			builds++;
			return undefined;
		});
		value();
		value();
		expect(builds).toBe(1);
	});
});

describe('zod', () => {
	it('loads one copy of zod that builds working schemas', () => {
		expect(zod()).toBe(zod());
		expect(zod().object({type: zod().string()}).safeParse({type: 'startRun'}).success).toBe(true);
		expect(zod().object({type: zod().string()}).safeParse({type: 1}).success).toBe(false);
	});
});
