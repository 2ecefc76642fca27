import {initialUiState, uiReducer, type UiAction, type UiState} from './ui-state.js';

/**
 * UI state outside React, updated synchronously. Several keys can arrive in one read (key repeat, a fast
 * typist, a paste): each must see the state the previous one left, which React state only provides after
 * a render.
 */
export class UiStore {
	#state: UiState;
	readonly #listeners = new Set<() => void>();

	constructor(initial: UiState = initialUiState) {
		this.#state = initial;
	}

	getState = (): UiState => this.#state;

	dispatch = (action: UiAction): void => {
		const next = uiReducer(this.#state, action);
		if (next === this.#state) return;
		this.#state = next;
		for (const listener of this.#listeners) listener();
	};

	subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => {
			this.#listeners.delete(listener);
		};
	};
}
