import {describe, expect, it} from 'vitest';
import {lastEventNote, quietAfterMs, spinnerGlyph} from './live-time.js';

describe('lastEventNote', () => {
	it('says nothing under 5 s, then whole seconds, minutes, hours', () => {
		expect(lastEventNote(quietAfterMs - 1)).toBeUndefined();
		expect(lastEventNote(Number.NaN)).toBeUndefined();
		expect(lastEventNote(quietAfterMs)).toBe('last event 5s ago');
		expect(lastEventNote(12_900)).toBe('last event 12s ago');
		expect(lastEventNote(125_000)).toBe('last event 2m 05s ago');
		expect(lastEventNote(3_725_000)).toBe('last event 1h 02m ago');
	});
});

describe('spinnerGlyph', () => {
	it('turns with the clock, a frame a tick (a second)', () => {
		expect(spinnerGlyph(0)).toBe(spinnerGlyph(999));
		expect(spinnerGlyph(1000)).not.toBe(spinnerGlyph(0));
		expect(spinnerGlyph(2000)).not.toBe(spinnerGlyph(1000));
		expect(spinnerGlyph(10_000)).toBe(spinnerGlyph(0));
	});
});
