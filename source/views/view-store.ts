import type {Model} from '../model/state.js';

/**
 * Decouples how fast events arrive from how often the screen redraws. Sources reduce events into the
 * model as fast as they come; this store looks at the model's revision on a fixed tick and tells React
 * about it at most once per tick, so a burst of 5,000 deltas a second still means ~25 renders a second.
 */
export class ViewStore {
	readonly model: Model;
	readonly #listeners = new Set<() => void>();
	readonly #intervalMs: number;
	readonly #now: () => number;
	#version = 0;
	#seenRev = -1;
	/** Shortest time between two published versions; grows when frames are expensive to build. */
	#minGapMs: number;
	#lastPublishedAt = -Infinity;
	#externalChange = false;
	#timer: NodeJS.Timeout | undefined;
	/** Recent (time, events) samples for the events/s figure. */
	#samples: Array<{at: number; events: number}> = [];
	eventsPerSecond = 0;
	readonly startedAt: number;

	constructor(model: Model, options: {intervalMs?: number; now?: () => number} = {}) {
		this.model = model;
		this.#intervalMs = options.intervalMs ?? 40;
		this.#minGapMs = this.#intervalMs;
		this.#now = options.now ?? Date.now;
		this.startedAt = this.#now();
	}

	start(): void {
		if (this.#timer) return;
		this.#timer = setInterval(() => {
			this.tick();
		}, this.#intervalMs);
	}

	stop(): void {
		if (this.#timer) clearInterval(this.#timer);
		this.#timer = undefined;
	}

	/** Something outside the model changed (a source ended, a child wrote to stderr). */
	markChanged(): void {
		this.#externalChange = true;
	}

	tick(): void {
		const now = this.#now();
		this.#samples.push({at: now, events: this.model.events});
		while (this.#samples.length > 2 && now - this.#samples[0]!.at > 2000) this.#samples.shift();
		const first = this.#samples[0]!;
		const seconds = (now - first.at) / 1000;
		this.eventsPerSecond = seconds > 0 ? (this.model.events - first.events) / seconds : 0;

		if (this.model.rev === this.#seenRev && !this.#externalChange) return;
		if (now - this.#lastPublishedAt < this.#minGapMs) return;
		this.#lastPublishedAt = now;
		this.#seenRev = this.model.rev;
		this.#externalChange = false;
		this.#version++;
		for (const listener of this.#listeners) listener();
	}

	/**
	 * Views report what building a frame cost. A frame that takes 100 ms (a pane of 100,000 activities being
	 * written to) must not be rebuilt 25 times a second: the gap between redraws becomes three times the
	 * cost, so drawing never takes more than about a quarter of the CPU and keys stay responsive.
	 */
	noteFrameCost(ms: number): void {
		this.#minGapMs = Math.min(1000, Math.max(this.#intervalMs, 3 * ms));
	}

	subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => {
			this.#listeners.delete(listener);
		};
	};

	getVersion = (): number => this.#version;
}
