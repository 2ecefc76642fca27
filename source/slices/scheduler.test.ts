import {describe, expect, it} from 'vitest';
import {manualScheduler} from '../../test/helpers/manual-scheduler.js';

/*
 * The one scheduler of work in slices: slices run a turn each, after what waits; work that reads the model takes
 * turns with changes of it; cancelled work runs no more and gives its turn back.
 */

/** Work of `count` slices, noting each as it runs. */
function slices(count: number, ran: number[]) {
	let done = 0;
	return () => {
		ran.push(++done);
		return done >= count;
	};
}

describe('work in slices', () => {
	it('runs a slice a turn until it says it is done, each given until when it may run', () => {
		const scheduler = manualScheduler({tick: 1});
		const untils: number[] = [];
		let left = 3;
		const task = scheduler.run(until => {
			untils.push(until - scheduler.now());
			return --left === 0;
		});
		expect(untils).toEqual([]);
		expect(scheduler.runAll()).toBe(3);
		expect(task.over).toBe(true);
		// Each slice may run for the slice budget (8 ms) from when it began, less the clock's moves since.
		for (const left of untils) expect(left).toBeGreaterThan(0);
	});

	it("with `now`, runs the first slice on the caller's turn: small work is done before the key's frame", () => {
		const scheduler = manualScheduler();
		const firsts: boolean[] = [];
		const task = scheduler.run(
			(_until, {first}) => {
				firsts.push(first);
				return true;
			},
			{now: true},
		);
		expect(firsts).toEqual([true]);
		expect(task.over).toBe(true);
		expect(scheduler.waiting()).toBe(0);
	});

	it("gives the slice run on a key half the time of the slices after it: the key's frame waits only for its own", () => {
		const scheduler = manualScheduler({tick: 0});
		const untils: number[] = [];
		let left = 2;
		scheduler.run(
			until => {
				untils.push(until - scheduler.now());
				return --left === 0;
			},
			{now: true},
		);
		scheduler.runAll();
		expect(untils).toEqual([scheduler.budgets.keySliceMs, scheduler.budgets.sliceMs]);
		expect(scheduler.budgets.keySliceMs).toBeLessThan(scheduler.budgets.sliceMs);
	});

	it('once cancelled, runs no more slices', () => {
		const scheduler = manualScheduler();
		const ran: number[] = [];
		const task = scheduler.run(slices(5, ran));
		scheduler.runOne();
		task.cancel();
		scheduler.runAll();
		expect(ran).toEqual([1]);
		expect(task.over).toBe(true);
	});

	it('waits while it is not ready, looking again later, and tells of its progress at most every progress budget', () => {
		const scheduler = manualScheduler({tick: 40});
		let ready = false;
		let told = 0;
		const ran: number[] = [];
		scheduler.run(slices(6, ran), {ready: () => ready, progress: () => told++});
		scheduler.runSome(3);
		expect(ran).toEqual([]);
		ready = true;
		scheduler.runAll();
		expect(ran).toEqual([1, 2, 3, 4, 5, 6]);
		// Five slices left something to do, with the clock 80 to 120 ms on between two: told two or three times.
		expect(told).toBeGreaterThanOrEqual(2);
		expect(told).toBeLessThan(5);
	});
});

describe('a stopped scheduler (the viewer closed)', () => {
	it('runs no step that was waiting, takes none from then on, and no work goes on', () => {
		const scheduler = manualScheduler();
		const ran: string[] = [];
		const work: number[] = [];
		scheduler.soon(() => ran.push('soon'));
		scheduler.later(() => ran.push('later'), 15);
		scheduler.run(slices(5, work));
		scheduler.stop();
		scheduler.soon(() => ran.push('after'));
		expect(scheduler.waiting()).toBe(0);
		scheduler.runAll();
		expect(ran).toEqual([]);
		expect(work).toEqual([]);
	});
});

describe('turns on the model', () => {
	it('work that reads the model holds its turn from its first slice to its end: changes wait meanwhile', () => {
		const scheduler = manualScheduler();
		const ran: number[] = [];
		scheduler.run(slices(3, ran), {reads: true});
		expect(scheduler.turns.reading).toBe(false);
		scheduler.runOne();
		expect(scheduler.turns.reading).toBe(true);
		scheduler.runAll();
		expect(ran).toEqual([1, 2, 3]);
		expect(scheduler.turns.reading).toBe(false);
	});

	it('does not begin while a change is part way, and begins once it is whole', () => {
		const scheduler = manualScheduler();
		const ran: number[] = [];
		scheduler.turns.setChanging(true);
		scheduler.run(slices(2, ran), {reads: true, now: true});
		scheduler.runSome(3);
		expect(ran).toEqual([]);
		expect(scheduler.turns.reading).toBe(false);
		scheduler.turns.setChanging(false);
		scheduler.runAll();
		expect(ran).toEqual([1, 2]);
	});

	it("work that takes the turn part way (a filter's layout after its bitmap) waits for a change part way, then holds the turn to its end", () => {
		const scheduler = manualScheduler();
		const ran: string[] = [];
		let step = 0;
		scheduler.run((_until, {read}) => {
			step++;
			if (step === 1) {
				ran.push('bitmap');
				return false;
			}

			if (!read()) {
				ran.push('wait');
				return false;
			}

			ran.push('layout');
			return step >= 4;
		});
		scheduler.runOne();
		scheduler.turns.setChanging(true);
		scheduler.runOne();
		expect(ran).toEqual(['bitmap', 'wait']);
		expect(scheduler.turns.reading).toBe(false);
		scheduler.turns.setChanging(false);
		scheduler.runOne();
		expect(scheduler.turns.reading).toBe(true);
		scheduler.runAll();
		expect(ran).toEqual(['bitmap', 'wait', 'layout', 'layout']);
		expect(scheduler.turns.reading).toBe(false);
	});

	it('cancelled, gives its turn back', () => {
		const scheduler = manualScheduler();
		const task = scheduler.run(slices(10, []), {reads: true});
		scheduler.runOne();
		expect(scheduler.turns.reading).toBe(true);
		task.cancel();
		expect(scheduler.turns.reading).toBe(false);
	});
});
