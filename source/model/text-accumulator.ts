/**
 * Streaming text for one channel of one step. Deltas are kept as pieces and joined only when read
 * (and then cached), so a long stream costs linear time, not a copy per delta. The completed text,
 * when it arrives, wins over the deltas, and later deltas cannot overwrite it.
 *
 * Memory is bounded: past `cap` characters only the head and the tail are kept, with a marker saying
 * how much was cut from the middle.
 */
export type TextState = {started: boolean; body: string; length: number; completed: string | undefined; head: string; cut: number; cap: number};

export class TextAccumulator {
	static defaultCap = 256 * 1024;

	started = false;
	#pieces: string[] = [];
	#length = 0;
	#completed: string | undefined;
	#joined: string | undefined;
	#head = '';
	#cut = 0;
	readonly #cap: number;

	constructor(cap = TextAccumulator.defaultCap) {
		this.#cap = cap;
	}

	/** A copy of its state as plain data, which can cross to another thread (private fields do not clone). */
	toState(): TextState {
		return {started: this.started, body: this.#completed === undefined ? this.#body() : '', length: this.#length, completed: this.#completed, head: this.#head, cut: this.#cut, cap: this.#cap};
	}

	static fromState(state: TextState): TextAccumulator {
		const text = new TextAccumulator(state.cap);
		text.started = state.started;
		text.#pieces = state.body === '' ? [] : [state.body];
		text.#length = state.length;
		text.#completed = state.completed;
		text.#head = state.head;
		text.#cut = state.cut;
		return text;
	}

	get isComplete(): boolean {
		return this.#completed !== undefined;
	}

	get isEmpty(): boolean {
		return this.#completed === undefined ? this.#length === 0 && this.#cut === 0 : this.#completed === '';
	}

	append(delta: string): void {
		if (this.#completed !== undefined || delta === '') return;
		this.#pieces.push(delta);
		this.#length += delta.length;
		this.#joined = undefined;
		if (this.#length > this.#cap) this.#compact();
	}

	complete(text: string): void {
		this.#completed = capText(text, this.#cap);
		this.#pieces = [];
		this.#length = 0;
		this.#head = '';
		this.#cut = 0;
		this.#joined = undefined;
	}

	get text(): string {
		if (this.#completed !== undefined) return this.#completed;
		if (this.#joined === undefined) {
			const body = this.#body();
			this.#joined = this.#cut > 0 ? `${this.#head}${cutMarker(this.#cut)}${body}` : body;
		}

		return this.#joined;
	}

	/** The kept deltas since the cut as one string (kept joined from then on). */
	#body(): string {
		const body = this.#pieces.length === 1 ? this.#pieces[0]! : this.#pieces.join('');
		this.#pieces = body === '' ? [] : [body];
		return body;
	}

	#compact(): void {
		const half = Math.floor(this.#cap / 2);
		const body = this.#pieces.join('');
		let from = 0;
		if (this.#cut === 0) {
			this.#head = detached(headOf(body, half));
			from = this.#head.length;
		}

		const tail = detached(tailOf(body, half));
		this.#cut += body.length - from - tail.length;
		this.#pieces = [tail];
		this.#length = tail.length;
	}
}

function cutMarker(count: number): string {
	return `\n… [${count} characters cut] …\n`;
}

/**
 * A copy of `text` that shares no memory with the string it was cut from. V8 keeps a whole string alive
 * for the sake of any slice of it, so a 50 MB result cut down to its head and tail would otherwise still
 * cost 50 MB. JSON.parse always builds fresh strings, and the round trip keeps every code unit as it was.
 */
function detached(text: string): string {
	const copy: unknown = JSON.parse(JSON.stringify(text));
	return typeof copy === 'string' ? copy : text;
}

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

/** The first `count` code units, one fewer when the cut would split a surrogate pair. */
function headOf(text: string, count: number): string {
	const end = count > 0 && isHighSurrogate(text.charCodeAt(count - 1)) ? count - 1 : count;
	return text.slice(0, end);
}

/** The last `count` code units, one fewer when the cut would split a surrogate pair. */
function tailOf(text: string, count: number): string {
	const start = text.length - count;
	return text.slice(start > 0 && isHighSurrogate(text.charCodeAt(start - 1)) ? start + 1 : Math.max(0, start));
}

/** `text` when it has at most `max` code units; else its start, copied, and `…`. */
export function shortened(text: string, max: number): string {
	return text.length <= max ? text : `${detached(headOf(text, max))}…`;
}

/** `text` when it fits in `cap` code units; else its head and tail around a marker saying how much was cut. */
export function capText(text: string, cap: number): string {
	if (text.length <= cap) return text;
	const half = Math.floor(cap / 2);
	const head = detached(headOf(text, half));
	const tail = detached(tailOf(text, half));
	return `${head}${cutMarker(text.length - head.length - tail.length)}${tail}`;
}
