/** How soon posts kept back look again whether they may go in. */
const retryMs = 15;
/** How long putting posts in may hold the thread before keys and frames get their turn. */
const turnMs = 8;

type Waiting<Post> = {post: Post; then: (() => void) | undefined};

export type HeldPostsOptions<Post> = {
	/** Whether the views are working something out of the model in slices now (LoadOptions.holdPosts). */
	held: () => boolean;
	/** Puts a post into the viewer's model, a part at each `next()`; done once it is all in. */
	inParts: (post: Post) => Iterator<void, void>;
	/** Runs a step after the keys and frames waiting, and returns what cancels it; `setImmediate` unless a test steps by hand. */
	soon?: ((step: () => void) => () => void) | undefined;
	/** Runs a step after `ms`, and returns what cancels it; `setTimeout` unless a test steps by hand. */
	later?: ((step: () => void, ms: number) => () => void) | undefined;
	now?: (() => number) | undefined;
};

function immediate(step: () => void): () => void {
	const handle = setImmediate(step);
	return () => {
		clearImmediate(handle);
	};
}

function timeout(step: () => void, ms: number): () => void {
	const timer = setTimeout(step, ms);
	return () => {
		clearTimeout(timer);
	};
}

/**
 * The load worker's posts on their way into the viewer's model, in the order they came. Putting one in changes
 * the viewer's model in place (its maps and lists, apply-changes.ts), so it waits while the views read the model
 * in slices (the tree's layout, the header's figures): a slice never finds the model changed since the one
 * before. A post goes in a part at a time, for a few milliseconds a turn, so that keys are answered between.
 */
export class HeldPosts<Post> {
	readonly #waiting: Array<Waiting<Post>> = [];
	readonly #held: () => boolean;
	readonly #inParts: (post: Post) => Iterator<void, void>;
	readonly #soon: (step: () => void) => () => void;
	readonly #later: (step: () => void, ms: number) => () => void;
	readonly #now: () => number;
	/** The post going in, if it is part way. */
	#current: {parts: Iterator<void, void>; then: (() => void) | undefined} | undefined;
	#cancel: (() => void) | undefined;

	constructor(options: HeldPostsOptions<Post>) {
		this.#held = options.held;
		this.#inParts = options.inParts;
		this.#soon = options.soon ?? immediate;
		this.#later = options.later ?? timeout;
		this.#now = options.now ?? (() => performance.now());
	}

	/**
	 * A post: put in on a turn of its own, once the views are done and those before it are in (never in the
	 * caller's turn: a worker's port hands on every message waiting in one go). `then` runs once it is in.
	 */
	offer(post: Post, then?: () => void): void {
		this.#waiting.push({post, then});
		this.#cancel ??= this.#soon(() => this.#next());
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
		this.#current = undefined;
		this.#waiting.length = 0;
		for (const then of thens) then?.();
	}

	#turn(): void {
		if (this.#cancel) return;
		if (this.#held()) {
			this.#cancel = this.#later(() => this.#next(), retryMs);
			return;
		}

		const until = this.#now() + turnMs;
		for (;;) {
			if (!this.#current) {
				const next = this.#waiting.shift();
				if (!next) return;
				this.#current = {parts: this.#inParts(next.post), then: next.then};
			}

			const {parts, then} = this.#current;
			if (parts.next().done) {
				this.#current = undefined;
				then?.();
			}

			if (this.#now() >= until && (this.#current || this.#waiting.length > 0)) {
				this.#cancel = this.#soon(() => this.#next());
				return;
			}
		}
	}

	#next(): void {
		this.#cancel = undefined;
		this.#turn();
	}
}
