import {createIdTable, getId, setId, type IdTable} from '../id-table.js';

/*
 * Children waiting for the delegation that made them (`Model.orphanChildren`), as a model that keeps its runs as
 * records keeps them: as bytes, by parent and tool call id (a wide job whose coordinator's delegations never show
 * has one per child), each child by its slot in the records.
 */

/** How a slot and its run's id find each other (run-records.ts). */
export type SlotIds = {slotOf(id: string): number | undefined; idOf(slot: number): string};

/** A call no child waits for any more (`takeWaiting`). */
const noChild = -1;

function waitingKey(parentRunId: string, toolCallId: string): string {
	return `${parentRunId}\u0000${toolCallId}`;
}

export class WaitingRecords {
	readonly #slots: SlotIds;
	/** By parent and tool call id: a child's slot, `noChild` once taken, or for a call more than one child waits on, `-2 - i` for the i-th list of slots. */
	readonly #waiting: IdTable;
	readonly #lists: number[][] = [];

	/** `tableFill`: see `createIdTable`. */
	constructor(slots: SlotIds, tableFill: number) {
		this.#slots = slots;
		this.#waiting = createIdTable(true, 1024, tableFill);
	}

	awaitDelegation(parentRunId: string, toolCallId: string, childRunId: string): void {
		const child = this.#slots.slotOf(childRunId);
		if (child === undefined) return;
		const key = waitingKey(parentRunId, toolCallId);
		const previous = getId(this.#waiting, key);
		if (previous === undefined || previous === noChild) setId(this.#waiting, key, child);
		else if (previous >= 0) {
			this.#lists.push([previous, child]);
			setId(this.#waiting, key, -1 - this.#lists.length);
		} else this.#lists[-2 - previous]?.push(child);
	}

	/** The children that wait for the delegation, which no longer waits for them. */
	takeWaiting(parentRunId: string, toolCallId: string): string[] | undefined {
		const key = waitingKey(parentRunId, toolCallId);
		const value = getId(this.#waiting, key);
		if (value === undefined || value === noChild) return undefined;
		setId(this.#waiting, key, noChild);
		if (value >= 0) return [this.#slots.idOf(value)];
		const list = this.#lists[-2 - value] ?? [];
		this.#lists[-2 - value] = [];
		return list.map(slot => this.#slots.idOf(slot));
	}
}
