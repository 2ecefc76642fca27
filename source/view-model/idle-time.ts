/*
 * Work done on idle time in the viewer (a search, a filter, texts made ahead, a tree's layout): slices that
 * run after the keys and frames already waiting, and never keep the process alive, since quitting must not wait
 * for work nobody will see. Tests step them by hand (test/helpers/manual-scheduler.ts).
 */

export type Scheduler = {
	/** Runs `step` after the keys and frames already waiting; returns what cancels it. */
	soon: (step: () => void) => () => void;
	/** Runs `step` after `ms`; returns what cancels it. */
	later: (step: () => void, ms: number) => () => void;
	now: () => number;
	/** How many activities the key itself searches at least (`firstSliceActivities`; tests set fewer to see slices on small logs). */
	firstSlice?: number;
};

/**
 * How soon work that may not begin yet looks again: a tree's layout or the header's figures, made in slices,
 * do not begin while the model is part way through taking in a post of the load (ViewStore.modelChanging).
 */
export const startRetryMs = 15;

export const idleTimers: Scheduler = {
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
