import {getHeapStatistics, setFlagsFromString} from 'node:v8';

/*
 * After each full garbage collection V8 lets the old generation grow to a multiple of what survived before the
 * next: from 1.1 to 4 times, the more the faster the program allocates against the collector's speed. The
 * viewer's load allocates fast on both threads (the worker's reducer and posts, the viewer decoding them and
 * making new run objects), so on the 200,000-run wide log each heap ran at two to three times what it held: the
 * viewer's heap at 550-1,100 MB for ~300 MB live, the worker's at 470-520 MB for ~350 MB, and the process's peak
 * anywhere from 1.25 to 1.8 GB from one run to the next. Held, both heaps stay near what they hold, for more
 * frequent collections, which V8 does mostly on its own threads.
 *
 * How near is a trade of memory against CPU. Each full collection marks all that the heap holds, so the tighter
 * the hold, the more often hundreds of megabytes are marked again: at 1.2 times, V8's helper threads (the
 * collector's, mostly) took 19 s of CPU on the wide log against 23 s for the viewer's and the worker's threads
 * together, and on two cores the load waited for them. The viewer's load is held at 1.5 times (`viewerHeapGrowingPercent`). Against 1.2 times, alternated on
 * the bench's shapes: 200,000 runs load in 14-17 s instead of 20-22 (a third less CPU), a 100,000-run chain in 9-11
 * instead of 12-14, 500,000 calls in 40-41 instead of 42-43; the peaks 0-11 % higher (docs/performance.md). The
 * headless modes stay at 1.2 times: their peaks are what #33's targets count there.
 *
 * The flag is the process's and is read at every collection; it is set by what starts a load for the CLI (the
 * viewer's load worker, serve-load.ts; the headless modes, `HeapGrowthHold`), as the young generation's cap is
 * (young-generation.ts), not by the loaders: a program using perscope's library keeps its own heap settings.
 */

/** How much the old generation may grow past what survived the last full collection, in percent: the headless modes'. */
export const heapGrowingPercent = 20;

/** The same for the viewer's load (see above). */
export const viewerHeapGrowingPercent = 50;

/** Holds both heaps of the process near what they hold (see above). */
export function holdHeapGrowth(percent = heapGrowingPercent): void {
	setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * The headless modes' hold: the same, once the heap holds `fromBytes`. Their loads allocate fast too, and a summary
 * of 20,000 jobs (~200 MB live at the end) peaked at 339 MB with the heap let grow, 274-286 MB held. From 96 MB it
 * came too late for logs whose model is smaller but whose garbage is not: one run of 500,000 calls keeps ~17 MB
 * live and let its heap grow to 58 MB between full collections, the wide job of 200,000 runs ~48 MB live in a heap
 * of 85-125 MB; held from 32 MB they peaked 25-50 MB lower (docs/performance.md). Below that size the collections
 * more often would cost a small log's load time for nothing: the bench's 124 MB log makes no full collection at all.
 */
export class HeapGrowthHold {
	readonly #fromBytes: number;
	#held = false;

	constructor(fromBytes = 32 * 1024 * 1024) {
		this.#fromBytes = fromBytes;
	}

	/** Cheap enough to call after every chunk. */
	afterChunk(): void {
		if (this.#held || getHeapStatistics().used_heap_size < this.#fromBytes) return;
		holdHeapGrowth();
		this.#held = true;
	}
}
