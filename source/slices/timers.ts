/*
 * The timers background work runs on. In the viewer: idle time, after the keys and frames already waiting. Quitting
 * must not wait for work nobody will see: the viewer stops its scheduler as it closes (Scheduler.stop), and a
 * retry's timeout does not keep the process alive. Tests step them by hand (test/helpers/manual-scheduler.ts).
 */

export type Timers = {
	/** Runs `step` after the keys and frames already waiting; returns what cancels it. */
	soon: (step: () => void) => () => void;
	/** Runs `step` after `ms`; returns what cancels it. */
	later: (step: () => void, ms: number) => () => void;
	/** The time now, in milliseconds (`performance.now()`). */
	now: () => number;
};

export const idleTimers: Timers = {
	// Not unref'd: Node polls for I/O without a timeout while only unref'd immediates wait, so such a slice ran
	// only once something else woke the event loop. With the stream quiet and the view store's tick at rest, a
	// filter's Enter waited seconds for its next slice (timers.test.ts).
	soon(step) {
		const handle = setImmediate(step);
		return () => {
			clearImmediate(handle);
		};
	},
	later(step, ms) {
		const handle = setTimeout(step, ms);
		handle.unref();
		return () => {
			clearTimeout(handle);
		};
	},
	now: () => performance.now(),
};

/**
 * The same timers, a retry's timeout keeping the process alive too: for work whose end something waits on when no
 * viewer keeps the process running (a load in a worker whose posts go into a model without views, as in tests).
 */
export const aliveTimers: Timers = {
	...idleTimers,
	later(step, ms) {
		const handle = setTimeout(step, ms);
		return () => {
			clearTimeout(handle);
		};
	},
};
