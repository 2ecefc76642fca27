import type {SourceState} from '../input/source-state.js';

/*
 * A followed file that does not exist yet is waited for, as `tail -F` does. The headless modes say so on stderr,
 * once when the wait begins and once when the file appears: otherwise a mistyped name would look like a log that
 * is merely quiet. (The viewer shows the same in its source strip.)
 */

/**
 * In the headless modes, once a command has exited, how long its output may stay open with nothing coming before
 * it is read no further: something it started may still write events (they are read), or may never write and
 * never close it (a server left running), and a script must not wait on that for ever. The viewer reads on until
 * the person quits.
 */
export const outputOpenAfterExitMs = 30_000;

/**
 * What to call after the states change: it writes a note for each followed file that began or ended waiting,
 * and one for a command that has exited while its output stays open (something it started holds it and may still
 * write events: it is read until it closes, or `idleAfterExitMs` pass without output).
 */
export function waitingNotes(
	states: () => readonly SourceState[],
	note: (text: string) => void,
	safe: (text: string) => string,
	idleAfterExitMs?: number,
): () => void {
	const waiting = new Set<SourceState>();
	const openAfterExit = new Set<SourceState>();
	// The followed files seen to exist: one of them waited for again was removed (a chat document's path, which is
	// read whole at each change: input/follow-rewritten.ts), not mistyped.
	const existed = new Set<SourceState>();
	return () => {
		for (const state of states()) {
			if (!state.waiting && state.bytesTotal !== undefined) existed.add(state);
			if (state.outputOpen && !openAfterExit.has(state)) {
				openAfterExit.add(state);
				const bound = idleAfterExitMs === undefined ? '' : ` (or ${Math.round(idleAfterExitMs / 1000)} s pass without any)`;
				note(
					`perscope: ${safe(state.label)} exited, but its output is still open (something it started holds it): reading until it closes${bound}; Ctrl-C stops\n`,
				);
			}

			if (state.waiting) {
				if (!waiting.has(state))
					note(
						existed.has(state)
							? `perscope: ${safe(state.label)} is gone (removed or renamed); waiting for it to appear again (--follow)\n`
							: `perscope: ${safe(state.label)} does not exist yet; waiting for it (--follow)\n`,
					);
				waiting.add(state);
				continue;
			}

			if (!waiting.has(state)) continue;
			// A file that appeared has a size. One stopped while it waited (Ctrl-C, SIGTERM) is no longer waiting
			// either, but has none: nothing appeared, and once it has ended there is nothing to say.
			if (state.bytesTotal === undefined) {
				if (!state.live) waiting.delete(state);
				continue;
			}

			waiting.delete(state);
			note(`perscope: ${safe(state.label)} appeared; reading it\n`);
		}
	};
}
