import {getHeapSpaceStatistics, setFlagsFromString} from 'node:v8';

/*
 * V8 starts a thread's young generation (the nursery where new objects are made) at 1 MB per semi-space and
 * doubles it, up to 16 MB, each time the bytes that survived its scavenges since it last grew add up to its
 * size. A large log's load makes garbage a parsed line at a time, and the little that survives adds up over
 * thousands of scavenges, so the nursery ends at 16 MB a semi-space: 32 MB resident from then on, for objects
 * that nearly all die with their line. Stopped at 4 MB a semi-space, the loads take the same time and peak
 * 20-60 MB lower on the largest logs; at 1 MB they are slower (docs/performance.md has the figures).
 *
 * node's `--max-semi-space-size` would say this once, but only on node's command line, which `perscope` is
 * not started with; the heap's sizes are fixed as it starts. The growth factor is read each time the nursery
 * grows, so a loading thread sets it to 1 once its nursery has reached the size wanted. The flag is the
 * process's: from then on no thread's nursery grows, until the load is over (`release`). A Node that stopped
 * reading it at run time would only leave the nursery growing as before; test/perf/nursery.test.ts says when that
 * is so.
 *
 * Called by what starts a load for the CLI (the headless modes, the viewer's load worker) after each chunk,
 * not by the loaders themselves: a program using perscope's library keeps its own heap settings.
 */

/** The young generation's size (both semi-spaces) at which it stops growing. */
export const defaultYoungGenerationBytes = 8 * 1024 * 1024;

/**
 * Stops the nursery's growth once this thread's is `maxBytes` or more. One per load (the headless run, the load
 * worker's), which calls `afterChunk` after every chunk; once it has set the flag it only says so.
 */
export class YoungGenerationCap {
	readonly #maxBytes: number;
	#stopped = false;

	constructor(maxBytes = defaultYoungGenerationBytes) {
		this.#maxBytes = maxBytes;
	}

	/** Cheap enough to call after every chunk. */
	afterChunk(): void {
		if (this.#stopped) return;
		const nursery = getHeapSpaceStatistics().find(space => space.space_name === 'new_space');
		if (nursery === undefined || nursery.space_size < this.#maxBytes) return;
		setFlagsFromString('--semi-space-growth-factor=1');
		this.#stopped = true;
	}

	/**
	 * Once the load is over: the nursery may grow again, by V8's own factor (2), for whatever the process does next.
	 * The viewer's load worker stops it for the whole process, and the viewer's thread has the most to do just after
	 * the load (the tree laid out, the texts made ahead for search), nearly all of it kept. In the 25 s after the load
	 * of the 200,000 runs, with a 4 MB semi-space: 200-413 scavenges, 0.8-1.0 s of the thread, and 5 full
	 * collections; left to grow: 90-147 scavenges, 0.5-0.6 s, and 1-2 full collections. The longest pause is about
	 * the same either way (23-55 ms). Measured in docs/performance.md. Afterwards `afterChunk` does nothing.
	 */
	release(): void {
		if (!this.#stopped) return;
		setFlagsFromString('--semi-space-growth-factor=2');
	}
}
