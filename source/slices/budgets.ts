/*
 * How long background work may hold the viewer's thread, and how soon it looks again: one set of figures for
 * every kind of work (a tree's layout, a search, a filter, texts made ahead, a job's figures, the load's posts).
 */

export type Budgets = {
	/** How long one slice may hold the thread before keys and frames get their turn. */
	sliceMs: number;
	/**
	 * How long the slice run on a key itself may take (a search's keystroke, a filter's Enter): the key's frame
	 * comes after it, and its time is the key's. The rest goes on in slices of `sliceMs` after the frame.
	 */
	keySliceMs: number;
	/**
	 * How many items (activities) the slice run on a key itself does at least, however slow the machine: a small
	 * log's search or filter is done before the key's frame. Tests set fewer to see slices on small logs.
	 */
	firstSlice: number;
	/**
	 * How soon work that may not go on yet looks again: a reader of the model while a change of it is part way,
	 * a change while a reader is under way (turns.ts).
	 */
	retryMs: number;
	/** How often work still running tells who waits on it how far it has got (each time redraws a prompt or the footer). */
	progressMs: number;
};

export const defaultBudgets: Budgets = {sliceMs: 8, keySliceMs: 4, firstSlice: 2048, retryMs: 15, progressMs: 100};
