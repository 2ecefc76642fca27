import type {Model} from '../model/state.js';

const tickSlackMs = 10;
const loadingGapMs = 250;
/**
 * While a file loads, a new model is drawn this many times its frame's cost apart, up to `maxLoadingGapMs`
 * (else frames keep to three times their cost, up to a second), and the load's progress 4 times a second in
 * between: the thread also takes in what the load posts meanwhile, the frame of a new model of a large log
 * (its tree laid out, the header's totals) takes seconds, and keys must find the thread free most of the time.
 */
const loadingCostFactor = 10;
const maxLoadingGapMs = 30_000;
/**
 * Ticks with nothing to publish and no event in the rate's window after which the tick stops: a viewer left open
 * on a stream gone quiet (a day in a tmux pane) runs no timer. Whatever changes the model or its sources says so
 * (`markChanged`, `setModel`), which starts the tick again.
 */
const quietTicksBeforeSleep = 20;

/**
 * Decouples how fast events arrive from how often the screen redraws. Sources reduce events into the
 * model as fast as they come; this store looks at the model's revision on a fixed tick and tells React
 * about it at most once per tick. Ink lays out and writes the whole screen on every frame (what that
 * costs: docs/performance.md), so events redraw at most 10 times a second: a burst of
 * 5,000 deltas a second or a large file loading still looks live, and most of the CPU is left for reading.
 * Keys do not wait for this: they redraw at once.
 */
export class ViewStore {
	#model: Model;
	#seenModel: Model | undefined;
	readonly #listeners = new Set<() => void>();
	readonly #intervalMs: number;
	readonly #now: () => number;
	#version = 0;
	#seenRev = -1;
	/** Shortest time between two published versions; grows when frames are expensive to build. */
	#minGapMs: number;
	#rowsCostMs = 0;
	#drawCostMs = 0;
	/**
	 * A published model's frame timed whole: from the publish to the end of Ink's drawing, React's render of every
	 * view included (the header's totals, the selection's job, a search carried on to the new revision), which
	 * neither the rows' cost nor Ink's figure counts. `#publishedAt` is when the frame being timed was published.
	 */
	#wholeFrameMs = 0;
	#publishedAt: number | undefined;
	#lastPublishedAt = -Infinity;
	/** When a model (a new one, or a new revision) was last published, as against only the progress. */
	#lastModelPublishedAt = -Infinity;
	/**
	 * What the frames of the last model published cost (until a frame of the progress alone, which costs little
	 * and does not count), and whether any was noted since it was published.
	 */
	#modelFrameCostMs = 0;
	#modelFrameNoted = true;
	#measuringModelFrame = true;
	#externalChange = false;
	#changedInPlace = false;
	#timer: NodeJS.Timeout | undefined;
	/** Whether `start` was called and `stop` was not: the tick runs, or sleeps until something changes. */
	#started = false;
	#quietTicks = 0;
	/** Recent (time, events) samples for the events/s figure. */
	#samples: Array<{at: number; events: number}> = [];
	eventsPerSecond = 0;
	readonly startedAt: number;

	readonly #loading: () => boolean;
	readonly #mayRest: () => boolean;

	/**
	 * `loading`: whether a file is being read as fast as it can be. Then events redraw only 4 times a
	 * second: each frame costs as much as reading a few megabytes, and a progress bar needs no more.
	 */
	/**
	 * `mayRest`: whether every change now announces itself (`markChanged`, `setModel`), so that the tick may stop
	 * while nothing changes; else it goes on (a load in a worker puts its posts into the model on turns of its own).
	 */
	constructor(model: Model, options: {intervalMs?: number; now?: () => number; loading?: () => boolean; mayRest?: () => boolean} = {}) {
		this.#model = model;
		this.#loading = options.loading ?? (() => false);
		this.#mayRest = options.mayRest ?? (() => true);
		this.#intervalMs = options.intervalMs ?? 100;
		this.#minGapMs = this.#intervalMs;
		this.#now = options.now ?? Date.now;
		this.startedAt = this.#now();
		// The rate counts from here: the first frames of a load (Ink takes a while to load) show it already.
		this.#samples.push({at: this.startedAt, events: model.events});
	}

	/**
	 * The model the views draw: the one last published. A load on the viewer's thread changes it as events
	 * arrive (its `rev` moves with each change); a load in a worker replaces it (setModel), and the
	 * replacement is what the views read from the tick that publishes it on. Keys read this one too, so a key
	 * pressed between two ticks acts on what is on the screen and never lays out a model no frame has shown (at
	 * 200,000 runs that is most of a second, and a load in a worker replaces the model twice a second).
	 */
	get model(): Model {
		return this.#seenModel ?? this.#model;
	}

	/**
	 * Whether the model shown is one a load changes in place, its `rev` moving while it stays the same object: a
	 * load on the viewer's thread (stdin, a command, a followed or small file) rather than a worker's, which
	 * replaces the model with each post. Work that reads such a model in slices finds it changed at the next
	 * chunk, and does better to do it at once.
	 */
	get changedInPlace(): boolean {
		return this.#changedInPlace;
	}

	/** The views draw this model from the next published version on. */
	setModel(model: Model): void {
		this.#model = model;
		this.#wake();
	}

	start(): void {
		this.#started = true;
		this.#wake();
	}

	stop(): void {
		this.#started = false;
		this.#sleep();
	}

	/** Whether the tick's timer runs (started, and not asleep for want of anything to publish). */
	get ticking(): boolean {
		return this.#timer !== undefined;
	}

	/**
	 * Something changed: a chunk of events was reduced into the model (the loads call this after each), a source
	 * ended, a child wrote to stderr.
	 */
	markChanged(): void {
		this.#externalChange = true;
		this.#wake();
	}

	#wake(): void {
		this.#quietTicks = 0;
		if (!this.#started || this.#timer) return;
		this.#timer = setInterval(() => {
			this.tick();
		}, this.#intervalMs);
	}

	#sleep(): void {
		if (this.#timer) clearInterval(this.#timer);
		this.#timer = undefined;
	}

	tick(): void {
		const now = this.#now();
		// A count gone back (a load starting over, on this thread, from an empty model) starts the rate afresh: a
		// rate below zero said "-14345/s".
		if (this.#model.events < (this.#samples.at(-1)?.events ?? 0)) this.#samples.length = 0;
		this.#samples.push({at: now, events: this.#model.events});
		while (this.#samples.length > 2 && now - this.#samples[0]!.at > 2000) this.#samples.shift();
		const first = this.#samples[0]!;
		const seconds = (now - first.at) / 1000;
		const rate = seconds > 0 ? (this.#model.events - first.events) / seconds : 0;
		// The header shows the rate: once events stop, it must come down to 0 on screen, not stay at the last one drawn.
		if (rate === 0 && this.eventsPerSecond !== 0) this.#externalChange = true;
		this.eventsPerSecond = rate;

		if (!this.#changed()) {
			if (rate === 0 && !this.#loading() && this.#mayRest() && ++this.#quietTicks >= quietTicksBeforeSleep) this.#sleep();
			return;
		}

		this.#quietTicks = 0;
		// A timer tick can come a little early; it must not push the frame to the tick after.
		if (!this.#loading()) {
			if (now - this.#lastPublishedAt >= this.#minGapMs - tickSlackMs) this.#publish(now);
			return;
		}

		const modelGap = Math.max(Math.min(maxLoadingGapMs, loadingCostFactor * this.#modelFrameCostMs), loadingGapMs);
		if (now - this.#lastModelPublishedAt >= modelGap - tickSlackMs) this.#publish(now);
		else if (this.#externalChange && now - this.#lastPublishedAt >= loadingGapMs - tickSlackMs) this.#publishProgress(now);
	}

	/**
	 * A frame of the model already drawn, for what moved outside it (the load's progress, its count of events):
	 * during a load the views draw a new model only every few frames' cost, while the progress moves on.
	 */
	#publishProgress(now: number): void {
		this.#lastPublishedAt = now;
		this.#measuringModelFrame = false;
		this.#externalChange = false;
		if (this.#seenModel && this.#seenModel !== this.#model) this.#seenModel.events = this.#model.events;
		this.#version++;
		for (const listener of this.#listeners) listener();
	}

	/** Publishes what changed now, whatever the gap: for moments the person waits on (a load that ended). */
	flush(): void {
		if (!this.#changed()) return;
		this.#publish(this.#now());
	}

	#changed(): boolean {
		return this.#model !== this.#seenModel || this.#model.rev !== this.#seenRev || this.#externalChange;
	}

	#publish(now: number): void {
		this.#publishedAt = now;
		this.#lastPublishedAt = now;
		this.#lastModelPublishedAt = now;
		this.#modelFrameNoted = false;
		this.#measuringModelFrame = true;
		// Set at the first revision of the shown model published after it; a model set anew is a worker's until then.
		this.#changedInPlace = this.#model === this.#seenModel ? this.#changedInPlace || this.#model.rev !== this.#seenRev : false;
		this.#seenModel = this.#model;
		this.#seenRev = this.#model.rev;
		this.#externalChange = false;
		this.#version++;
		for (const listener of this.#listeners) listener();
	}

	/**
	 * What the last frame cost: building the rows (a pane of 100,000 activities being written to can take
	 * 100 ms) and drawing them (Ink's layout and output), or the whole of a published model's frame when that is
	 * more (the views' render too: `#wholeFrameMs`). A frame that costs much must not be rebuilt 10 times a second:
	 * the gap between redraws becomes three times the cost, so drawing never takes more than about a quarter of the
	 * CPU and keys stay responsive.
	 */
	noteRowsCost(ms: number): void {
		this.#rowsCostMs = ms;
		this.#adapt();
	}

	noteDrawCost(ms: number): void {
		this.#drawCostMs = ms;
		// The first draw after a publish is that publish's frame: React renders it in the microtasks right after the
		// tick, and Ink draws it at once (its throttle, at 120 frames a second, lets these through: show-app.tsx).
		// A draw no publish caused (a key's) keeps the last whole frame's cost. One that took longer than the longest
		// gap is no frame's alone.
		const published = this.#publishedAt;
		this.#publishedAt = undefined;
		if (published !== undefined) {
			const whole = this.#now() - published;
			if (whole <= maxLoadingGapMs) this.#wholeFrameMs = whole;
		}

		this.#adapt();
	}

	#adapt(): void {
		this.#minGapMs = Math.min(1000, Math.max(this.#intervalMs, 3 * this.#frameCostMs()));
		if (!this.#measuringModelFrame) return;
		this.#modelFrameCostMs = this.#modelFrameNoted ? Math.max(this.#modelFrameCostMs, this.#frameCostMs()) : this.#frameCostMs();
		this.#modelFrameNoted = true;
	}

	#frameCostMs(): number {
		return Math.max(this.#rowsCostMs + this.#drawCostMs, this.#wholeFrameMs);
	}

	subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => {
			this.#listeners.delete(listener);
		};
	};

	getVersion = (): number => this.#version;
}
