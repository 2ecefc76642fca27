import {Scheduler} from '../../source/slices/scheduler.js';
import type {Timers} from '../../source/slices/timers.js';

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
 * A scheduler (slices/scheduler.ts) whose slices run only when a test says so: searches, filters, texts made
 * ahead, layouts, figures and the load's posts. Each read of the clock moves it `tick` milliseconds: a tick past
 * a slice's length makes every slice do its least, a small one lets a slice go on for a while. `firstSlice` is the
 * least the key's own slice does (`Budgets.firstSlice`). `later` queues like `soon`: the time waited is the test's.
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

	const timers: Timers = {soon: queue, later: step => queue(step), now: () => (clock += tick)};
	const scheduler = new Scheduler(timers, firstSlice === undefined ? {} : {firstSlice});
	return Object.assign(scheduler, {
		pending,
		runOne() {
			runSome(1);
		},
		runSome(count: number) {
			runSome(count);
		},
		// Bounded, so a slice that schedules itself for ever fails the test instead of hanging it.
		runAll: () => runSome(1_000_000),
		waiting: () => pending.length,
	});
}
