/*
 * What the header says about time while a run is live: nothing about the quiet until it lasts; then how long;
 * and the spinner, turned by the clock.
 */

/**
 * The clock ticks once a second: the elapsed time and "last event 12s ago" show whole seconds, and every redraw
 * is a full frame for Ink (docs/performance.md), so a faster tick would cost CPU for nothing on screen.
 */
export const clockPeriodMs = 1000;

/**
 * No event for this long and the header says so: a model call that thinks for a few seconds is ordinary, one
 * that has sent nothing for longer may be stuck (or the producer stopped writing).
 */
export const quietAfterMs = 5000;

/** `last event 12s ago`, once no event has come for `quietAfterMs`; undefined before that. */
export function lastEventNote(quietMs: number): string | undefined {
	if (!(quietMs >= quietAfterMs)) return undefined;
	const seconds = Math.floor(quietMs / 1000);
	if (seconds < 60) return `last event ${seconds}s ago`;
	const minutes = Math.floor(seconds / 60);
	if (minutes < 60) return `last event ${minutes}m ${String(seconds % 60).padStart(2, '0')}s ago`;
	return `last event ${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m ago`;
}

/**
 * The spinner turns with the clock rather than its own timer: a timer of its own would redraw the whole
 * screen (Ink lays out and writes every frame in full) on top of the frames events already cause. A frame a
 * clock tick: a faster frame would show only every fifth glyph when no event comes, a blink, not a turn.
 */
const spinnerFrames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const spinnerFrameMs = clockPeriodMs;

export function spinnerGlyph(now: number): string {
	return spinnerFrames[Math.floor(now / spinnerFrameMs) % spinnerFrames.length]!;
}
