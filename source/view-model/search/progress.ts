/**
 * Tells the views whenever background work they show has moved on: a search running in slices found more or
 * ended (its count in the prompt and the footer), a filter worked out in slices got further (the footer).
 */
export class Progress {
	readonly #listeners = new Set<() => void>();
	#version = 0;

	/** Tells `listener` of every move; returns the unsubscribe. For `useSyncExternalStore`. */
	readonly subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => {
			this.#listeners.delete(listener);
		};
	};

	/** Moves whenever the listeners are told: for `useSyncExternalStore`. */
	readonly version = (): number => this.#version;

	tell(): void {
		this.#version++;
		for (const listener of this.#listeners) listener();
	}
}
