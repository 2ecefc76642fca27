/**
 * How much longer `work` takes on an input four times as large: ~4 for work linear in its input, ~16 for
 * quadratic. A check of how work grows, not of how fast this machine is: a bound on wall time failed on a
 * machine at load 10 (11.7 s against 5 s) though nothing had changed. Each size is timed three times and the
 * fastest kept, so that a pause of the machine or the collector in one try does not count.
 */
export function growthOnFourTimes(work: (size: number) => unknown, size: number): number {
	const fastest = (n: number) => {
		let best = Infinity;
		for (let attempt = 0; attempt < 3; attempt++) {
			const started = performance.now();
			work(n);
			best = Math.min(best, performance.now() - started);
		}

		return best;
	};

	fastest(size); // Warm: the first calls also compile.
	// At least a millisecond, so that a fast small size does not turn the timer's grain into a large ratio.
	return fastest(size * 4) / Math.max(1, fastest(size));
}

/** Between linear (~4) and quadratic (~16), with room for the noise of a busy machine. */
export const linearGrowthBound = 9;
