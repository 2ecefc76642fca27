/*
 * The timers background work runs on. In the viewer: idle time, after the keys and frames already waiting, and
 * never keeping the process alive, since quitting must not wait for work nobody will see. Tests step them by
 * hand (test/helpers/manual-scheduler.ts).
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
	soon(step) {
		const handle = setImmediate(step);
		handle.unref();
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
 * The same timers, keeping the process alive meanwhile: for work whose end something waits on when no viewer
 * keeps the process running (a load in a worker whose posts go into a model without views, as in tests).
 */
export const aliveTimers: Timers = {
	soon(step) {
		const handle = setImmediate(step);
		return () => {
			clearImmediate(handle);
		};
	},
	later(step, ms) {
		const handle = setTimeout(step, ms);
		return () => {
			clearTimeout(handle);
		};
	},
	now: () => performance.now(),
};
