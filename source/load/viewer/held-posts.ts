import type {Scheduler} from '../../slices/scheduler.js';

type Waiting<Post> = {post: Post; then: (() => void) | undefined};

export type HeldPostsOptions<Post> = {
	/** Puts a post into the viewer's model, a part at each `next()`; done once it is all in. */
	inParts: (post: Post) => Iterator<void, void>;
	/**
	 * The viewer's scheduler (slices/): its timers and budgets, and the turns on the model (slices/turns.ts) the
	 * posts take with the views' work that reads it in slices.
	 */
	scheduler: Scheduler;
};

/**
 * The load worker's posts on their way into the viewer's model, in the order they came. Putting one in changes
 * the viewer's model in place (its maps and lists, apply-changes.ts), so it waits while the views read the model
 * in slices (the tree's layout, the header's figures): a slice never finds the model changed since the one
 * before; and while a post is part way, such work waits to begin (the scheduler's turns). A post goes in a part
 * at a time, for a slice's time a turn, so that keys are answered between.
 */
export class HeldPosts<Post> {
	readonly #waiting: Array<Waiting<Post>> = [];
	readonly #inParts: (post: Post) => Iterator<void, void>;
	readonly #scheduler: Scheduler;
	/** The post going in, if it is part way. */
	#current: {parts: Iterator<void, void>; then: (() => void) | undefined} | undefined;
	#cancel: (() => void) | undefined;

	constructor(options: HeldPostsOptions<Post>) {
		this.#inParts = options.inParts;
		this.#scheduler = options.scheduler;
	}

	/**
	 * A post: put in on a turn of its own, once the views are done and those before it are in (never in the
	 * caller's turn: a worker's port hands on every message waiting in one go). `then` runs once it is in.
	 */
	offer(post: Post, then?: () => void): void {
		this.#waiting.push({post, then});
		this.#cancel ??= this.#scheduler.soon(() => this.#next());
	}

	/** Runs `then` once every post offered so far is in: now, when none waits. */
	whenIn(then: () => void): void {
		const last = this.#waiting.at(-1) ?? this.#current;
		if (!last) {
			then();
			return;
		}

		const before = last.then;
		last.then = () => {
			before?.();
			then();
		};
	}

	/** Whether a post is part way in: the model's maps and lists hold some of it. */
	get partWay(): boolean {
		return this.#current !== undefined;
	}

	/** How many posts wait, the one going in included. */
	get waiting(): number {
		return this.#waiting.length + (this.#current ? 1 : 0);
	}

	/**
	 * Drops what waits (the load stopped, or starts over on the viewer's thread). Their `then`s still run: what
	 * waits on the load's end must not wait on posts that will never go in.
	 */
	stop(): void {
		this.#cancel?.();
		this.#cancel = undefined;
		const thens = [this.#current?.then, ...this.#waiting.map(each => each.then)];
		this.#setCurrent(undefined);
		this.#waiting.length = 0;
		for (const then of thens) then?.();
	}

	/** The post going in; the model's turns say whether one is part way. */
	#setCurrent(current: {parts: Iterator<void, void>; then: (() => void) | undefined} | undefined): void {
		this.#current = current;
		this.#scheduler.turns.setChanging(current !== undefined);
	}

	#turn(): void {
		if (this.#cancel) return;
		const scheduler = this.#scheduler;
		if (scheduler.turns.reading) {
			this.#cancel = scheduler.later(() => this.#next(), scheduler.budgets.retryMs);
			return;
		}

		const until = scheduler.deadline();
		for (;;) {
			if (!this.#current) {
				const next = this.#waiting.shift();
				if (!next) return;
				this.#setCurrent({parts: this.#inParts(next.post), then: next.then});
			}

			const {parts, then} = this.#current!;
			if (parts.next().done) {
				this.#setCurrent(undefined);
				then?.();
			}

			if (scheduler.now() >= until && (this.#current || this.#waiting.length > 0)) {
				this.#cancel = scheduler.soon(() => this.#next());
				return;
			}
		}
	}

	#next(): void {
		this.#cancel = undefined;
		this.#turn();
	}
}
