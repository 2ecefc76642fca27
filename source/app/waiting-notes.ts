import type {SourceState} from '../input/source-state.js';

/*
 * A followed file that does not exist yet is waited for, as `tail -F` does. The headless modes say so on stderr,
 * once when the wait begins and once when the file appears: otherwise a mistyped name would look like a log that
 * is merely quiet. (The viewer shows the same in its source strip.)
 */

/** What to call after the states change: it writes a note for each followed file that began or ended waiting. */
export function waitingNotes(states: () => readonly SourceState[], note: (text: string) => void, safe: (text: string) => string): () => void {
	const waiting = new Set<SourceState>();
	return () => {
		for (const state of states()) {
			if (state.waiting) {
				if (!waiting.has(state)) note(`perscope: ${safe(state.label)} does not exist yet; waiting for it (--follow)\n`);
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
