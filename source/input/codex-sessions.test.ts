import {describe, expect, it} from 'vitest';
import {nextDayFolder} from './codex-sessions.js';

describe('the folder of the next day', () => {
	it('is the next day of Codex’s year/month/day folders, across a month’s and a year’s end', () => {
		expect(nextDayFolder('/h/.codex/sessions/2026/11/29')).toBe('/h/.codex/sessions/2026/11/30');
		expect(nextDayFolder('/h/.codex/sessions/2026/11/30')).toBe('/h/.codex/sessions/2026/12/01');
		expect(nextDayFolder('/h/.codex/sessions/2026/12/31')).toBe('/h/.codex/sessions/2027/01/01');
		expect(nextDayFolder('/h/.codex/sessions/2028/02/28')).toBe('/h/.codex/sessions/2028/02/29');
		expect(nextDayFolder('/h/somewhere')).toBeUndefined();
	});
});
