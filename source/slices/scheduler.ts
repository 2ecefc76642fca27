import {defaultBudgets, type Budgets} from './budgets.js';
import {idleTimers, type Timers} from './timers.js';
import {Turns} from './turns.js';

/*
 * The one owner of background work in the viewer: every piece of work done in slices between keys and frames
 * (a tree's layout, a search, a filter worked out before it is applied, texts made ahead, a job's figures) runs
 * as a task of the viewer's scheduler, and the load's posts go into the viewer's model on its timers too. One
 * per viewer, made by the wiring (app/) and handed to the views and the load; tests make their own with timers
 * they step by hand.
 */

/** What a slice is told, besides until when it may run. */
export type SliceState = {
	/** It is the slice run on the caller's turn (`TaskOptions.now`). */
	first: boolean;
	/**
	 * Takes the model's read turn for the rest of the work, for work that reads the model across its slices from
	 * some point on (a filter's layout, after its bitmap): false while a change is part way, and the slice should
	 * then stop (returning false); the next one comes once the change may be whole.
	 */
	read: () => boolean;
};

/** One slice of work: goes on until `until` (the scheduler's clock) and says whether the work is done. */
export type Slice = (until: number, state: SliceState) => boolean;

export type TaskOptions = {
	/**
	 * It reads the viewer's model across its slices (Turns): its first slice waits while a change of the model is
	 * part way, and from then until it ends or is cancelled, changes wait for it.
	 */
	reads?: boolean | undefined;
	/** The first slice runs on the caller's turn (a key's), so that small work is done before the key's frame. */
	now?: boolean | undefined;
	/** Waits this long before its first slice. */
	delayMs?: number | undefined;
	/** Whether its next slice may run now; while not, it looks again after `waitMs` (the retry budget by default). */
	ready?: (() => boolean) | undefined;
	waitMs?: number | undefined;
	/** Told at most every `progressMs` (budget) while it runs, never after its last slice. */
	progress?: (() => void) | undefined;
};

/** Work running in slices. */
export type Task = {
	/** Stops it: no slice runs after this, and a read turn it holds is given back. */
	cancel: () => void;
	/** Whether it is done or cancelled. */
	readonly over: boolean;
};

export class Scheduler {
	readonly budgets: Budgets;
	/** The viewer's model, read in slices and changed in parts: who may go on (turns.ts). */
	readonly turns = new Turns();
	readonly #timers: Timers;
	/** What cancels each step waiting on a timer. */
	readonly #armed = new Set<() => void>();
	#stopped = false;

	constructor(timers: Timers = idleTimers, budgets: Partial<Budgets> = {}) {
		this.#timers = timers;
		this.budgets = {...defaultBudgets, ...budgets};
	}

	/** Runs `step` after the keys and frames already waiting; returns what cancels it. */
	soon(step: () => void): () => void {
		return this.#arm(run => this.#timers.soon(run), step);
	}

	/** Runs `step` after `ms`; returns what cancels it. */
	later(step: () => void, ms: number): () => void {
		return this.#arm(run => this.#timers.later(run, ms), step);
	}

	/**
	 * Stops for good: no step waiting runs, and none is taken from now on. The viewer stops its scheduler as it
	 * closes, so that quitting never waits for work nobody will see.
	 */
	stop(): void {
		this.#stopped = true;
		for (const cancel of [...this.#armed]) cancel();
	}

	/** `step` on a timer, known until it runs or is cancelled, so that `stop` can cancel it. */
	#arm(start: (run: () => void) => () => void, step: () => void): () => void {
		if (this.#stopped) return () => undefined;
		const armed = this.#armed;
		const cancel = (): void => {
			armed.delete(cancel);
			cancelTimer();
		};

		const cancelTimer = start(() => {
			armed.delete(cancel);
			step();
		});
		armed.add(cancel);
		return cancel;
	}

	now(): number {
		return this.#timers.now();
	}

	/** Until when a slice begun now may run. */
	deadline(): number {
		return this.now() + this.budgets.sliceMs;
	}

	/** Until when the slice run on a key itself may run (`Budgets.keySliceMs`): the key's frame waits for it. */
	keyDeadline(): number {
		return this.now() + this.budgets.keySliceMs;
	}

	/** Runs `slice` a slice a turn until it says it is done or the task is cancelled. */
	run(slice: Slice, options: TaskOptions = {}): Task {
		const {turns} = this;
		const {reads = false, ready, progress} = options;
		let cancelTimer: () => void = () => undefined;
		let over = false;
		let holding = false;
		let told = this.now();
		const task: Task = {
			cancel() {
				over = true;
				cancelTimer();
				release();
			},
			get over() {
				return over;
			},
		};
		const release = (): void => {
			if (!holding) return;
			holding = false;
			turns.stopReading(task);
		};

		/** Whether it holds the model's read turn, taken now if not: false while a change is part way. */
		let refused = false;
		const read = (): boolean => {
			if (holding) return true;
			if (!turns.startReading(task)) {
				refused = true;
				return false;
			}

			holding = true;
			return true;
		};

		/** One slice, once it may run: whether the work is done, or 'wait' (it must wait to go on). */
		const take = (first: boolean): boolean | 'wait' => {
			if (ready && !ready()) return 'wait';
			refused = false;
			if (reads && !read()) return 'wait';
			const done = slice(first ? this.keyDeadline() : this.deadline(), {first, read});
			if (done && !over) {
				over = true;
				release();
			}

			return !done && refused ? 'wait' : done;
		};

		const step = (): void => {
			if (over) return;
			const outcome = take(false);
			if (over) return;
			if (outcome === 'wait') {
				cancelTimer = this.later(step, options.waitMs ?? this.budgets.retryMs);
				return;
			}

			if (progress && this.now() - told >= this.budgets.progressMs) {
				told = this.now();
				progress();
			}

			cancelTimer = this.soon(step);
		};

		if (options.now && take(true) !== 'wait') {
			if (!over) cancelTimer = this.soon(step);
		} else if (options.delayMs !== undefined && options.delayMs > 0) cancelTimer = this.later(step, options.delayMs);
		else cancelTimer = this.soon(step);
		return task;
	}
}
