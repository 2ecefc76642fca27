/**
 * Work that reads something shared across its slices (the viewer's model: a tree's layout, a job's figures) and
 * work that changes it a part at a time (the load's posts, put into the viewer's model in place) take turns: a
 * reader begins only while no change is part way, and a change goes on only while no reader is under way. A
 * slice then never finds the model changed since the one before, and a change is never seen half made.
 */
export class Turns {
	readonly #readers = new Set<object>();
	/**
	 * Readers refused while a change was part way, until they get the turn or stop. A change begins no new part
	 * of the model while one waits (`readerWaiting`): a load with posts queued always has one part way at the end
	 * of its slice, and a filter's Enter on a log still streaming in waited until the whole backlog was in (5 s).
	 */
	readonly #waiting = new Set<object>();
	#changing = false;

	/** Whether a reader is under way: changes wait. */
	get reading(): boolean {
		return this.#readers.size > 0;
	}

	/** Whether a change is part way: readers wait to begin. */
	get changing(): boolean {
		return this.#changing;
	}

	/** Whether a reader was refused and waits for its turn: changes finish the part they are in and begin no new one. */
	get readerWaiting(): boolean {
		return this.#waiting.size > 0;
	}

	/** Takes the read turn for `reader`; false (and nothing taken, the reader noted as waiting) while a change is part way. */
	startReading(reader: object): boolean {
		if (this.#changing) {
			this.#waiting.add(reader);
			return false;
		}

		this.#waiting.delete(reader);
		this.#readers.add(reader);
		return true;
	}

	/** Gives the turn back, or stops waiting for it. */
	stopReading(reader: object): void {
		this.#readers.delete(reader);
		this.#waiting.delete(reader);
	}

	/** Says whether a change is part way; a change begins only while no reader is under way (`reading`). */
	setChanging(partWay: boolean): void {
		this.#changing = partWay;
	}
}
