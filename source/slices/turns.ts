/**
 * Work that reads something shared across its slices (the viewer's model: a tree's layout, a job's figures) and
 * work that changes it a part at a time (the load's posts, put into the viewer's model in place) take turns: a
 * reader begins only while no change is part way, and a change goes on only while no reader is under way. A
 * slice then never finds the model changed since the one before, and a change is never seen half made.
 */
export class Turns {
	readonly #readers = new Set<object>();
	#changing = false;

	/** Whether a reader is under way: changes wait. */
	get reading(): boolean {
		return this.#readers.size > 0;
	}

	/** Whether a change is part way: readers wait to begin. */
	get changing(): boolean {
		return this.#changing;
	}

	/** Takes the read turn for `reader`; false (and nothing taken) while a change is part way. */
	startReading(reader: object): boolean {
		if (this.#changing) return false;
		this.#readers.add(reader);
		return true;
	}

	stopReading(reader: object): void {
		this.#readers.delete(reader);
	}

	/** Says whether a change is part way; a change begins only while no reader is under way (`reading`). */
	setChanging(partWay: boolean): void {
		this.#changing = partWay;
	}
}
