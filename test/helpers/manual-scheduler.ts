import type {Scheduler} from '../../source/view-model/idle-time.js';

export type ManualScheduler = Scheduler & {
	/** The slices waiting, oldest first. */
	pending: Array<() => void>;
	runOne: () => void;
	runSome: (count: number) => void;
	/** Runs slices until none waits; returns how many ran. */
	runAll: () => number;
	waiting: () => number;
};

/**
 * Idle-time slices (search, filter, texts made ahead) that run only when a test says so. Each read of the clock
 * moves it `tick` milliseconds: a tick past a slice's length makes every slice do its least, a small one lets a
 * slice go on for a while. `firstSlice` is the least the key's own slice does (`Scheduler.firstSlice`).
 */
export function manualScheduler({tick = 1, firstSlice}: {tick?: number; firstSlice?: number} = {}): ManualScheduler {
	let clock = 0;
	const pending: Array<() => void> = [];
	const queue = (step: () => void) => {
		pending.push(step);
		return () => {
			const at = pending.indexOf(step);
			if (at !== -1) pending.splice(at, 1);
		};
	};

	const runSome = (count: number): number => {
		let ran = 0;
		while (ran < count && pending.length > 0) {
			pending.shift()!();
			ran++;
		}

		return ran;
	};

	return {
		pending,
		soon: queue,
		later: step => queue(step),
		now: () => (clock += tick),
		...(firstSlice === undefined ? {} : {firstSlice}),
		runOne() {
			runSome(1);
		},
		runSome(count) {
			runSome(count);
		},
		// Bounded, so a slice that schedules itself for ever fails the test instead of hanging it.
		runAll: () => runSome(1_000_000),
		waiting: () => pending.length,
	};
}
