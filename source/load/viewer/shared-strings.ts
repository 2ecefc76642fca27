/**
 * One copy of each string the viewer's model repeats, while a load in a worker is put into it (apply-changes.ts).
 * A post is a structured clone, which copies a string each time it occurs: every run's job id, dialect, status
 * and source path, a run's id in its pane, its parent's children, its job and its activities all arrive as strings
 * of their own, where the worker's model held one. Over 200,000 runs those copies were a third of the viewer's
 * heap (docs/performance.md); put in through this, each occurrence refers to the string first seen.
 */
export class SharedStrings {
	readonly #kept = new Map<string, string>();

	/** The copy kept of `text` (`text` itself the first time it is seen). */
	of<T extends string | null | undefined>(text: T): T {
		if (typeof text !== 'string') return text;
		const kept = this.#kept.get(text);
		if (kept !== undefined) return kept as T;
		this.#kept.set(text, text);
		return text;
	}

	/** Puts the kept copies in place of the list's strings. */
	inPlace(list: Array<string | null | undefined>): void {
		for (let index = 0; index < list.length; index++) list[index] = this.of(list[index]);
	}
}
