/*
 * What the header says about time while a run is live: nothing about the quiet until it lasts; then how long.
 */

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
