/**
 * How much longer `work` takes on an input four times as large: ~4 for work linear in its input, ~16 for
 * quadratic. A check of how work grows, not of how fast this machine is: a bound on wall time failed on a
 * machine at load 10 (11.7 s against 5 s) though nothing had changed.
 *
 * Each size is timed in this process's CPU time, not on the wall clock: on a busy machine (the suite's other
 * workers, the viewers it runs in tmux) the wall clock also counts the time the process waited for a core. That
 * once made 200,000 spaces take 12 ms of wall time against ~1.3 ms of work (CI, 2026-11-28). The two sizes are
 * timed in turn, five times each, and each one's fastest kept, so that the collector's pause in one try, or a
 * slow stretch of the machine, counts against neither size alone.
 */
export function growthOnFourTimes(work: (size: number) => unknown, size: number): number {
	const cpuMs = (n: number) => {
		const started = process.cpuUsage();
		work(n);
		const {user, system} = process.cpuUsage(started);
		return (user + system) / 1000;
	};

	cpuMs(size); // Warm: the first calls also compile.
	let small = Infinity;
	let large = Infinity;
	for (let attempt = 0; attempt < 5; attempt++) {
		small = Math.min(small, cpuMs(size));
		large = Math.min(large, cpuMs(size * 4));
	}

	// At least a millisecond, so that a fast small size does not turn the timer's grain into a large ratio.
	return large / Math.max(1, small);
}

/** Between linear (~4) and quadratic (~16), with room for the noise of a busy machine. */
export const linearGrowthBound = 9;
