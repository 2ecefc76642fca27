/**
 * Streaming text for one channel of one step. Deltas are kept as pieces and joined only when read
 * (and then cached), so a long stream costs linear time, not a copy per delta. The completed text,
 * when it arrives, wins over the deltas, and later deltas cannot overwrite it.
 *
 * Memory is bounded: past `cap` characters only the head and the tail are kept, with a marker saying
 * how much was cut from the middle.
 *
 * Deltas are put in the order of their timestamps: the runtime writes each delta after its own event file, so
 * they reach stdout out of order now and then. The latest `orderedPieces` deltas stay apart for that (a delta
 * is at most a few behind); older ones are joined.
 */
export type TextState = {started: boolean; body: string; length: number; completed: string | undefined; head: string; cut: number; cap: number};

/**
 * The lists of an accumulator that holds no delta (none came, or the whole text did), shared until its first delta:
 * a run keeps the streams of its last steps after it closed, two accumulators a step, and two empty arrays each were
 * ~130 bytes a stream (~10 MB a thread over the bench's 80,000 runs of 20,000 jobs).
 */
const noPieces = Object.freeze([]) as unknown as string[];
const noTimes = Object.freeze([]) as unknown as number[];

export class TextAccumulator {
	static defaultCap = 256 * 1024;

	started = false;
	#pieces: string[] = noPieces;
	/** Each piece's timestamp (NaN when unknown); a joined body has its latest delta's. */
	#times: number[] = noTimes;
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
		return {
			started: this.started,
			body: this.#completed === undefined ? this.#body() : '',
			length: this.#length,
			completed: this.#completed,
			head: this.#head,
			cut: this.#cut,
			cap: this.#cap,
		};
	}

	static fromState(state: TextState): TextAccumulator {
		const text = new TextAccumulator(state.cap);
		text.started = state.started;
		text.#pieces = state.body === '' ? noPieces : [state.body];
		text.#times = state.body === '' ? noTimes : [Number.NaN];
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

	/** Adds a delta; `at`, its timestamp, puts it before later deltas that came first. */
	append(delta: string, at?: number): void {
		if (this.#completed !== undefined || delta === '') return;
		const time = at ?? Number.NaN;
		if (this.#pieces === noPieces) {
			this.#pieces = [];
			this.#times = [];
		}

		let index = this.#pieces.length;
		// A comparison with NaN is false: a delta or piece without a timestamp stays where it came.
		while (index > 0 && this.#times[index - 1]! > time) index--;
		if (index === this.#pieces.length) {
			this.#pieces.push(delta);
			this.#times.push(time);
		} else {
			this.#pieces.splice(index, 0, delta);
			this.#times.splice(index, 0, time);
		}

		this.#length += delta.length;
		this.#joined = undefined;
		if (this.#length > this.#cap) this.#compact();
	}

	complete(text: string): void {
		this.#completed = capText(text, this.#cap);
		this.#pieces = noPieces;
		this.#times = noTimes;
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

	/**
	 * The kept deltas since the cut as one string. All but the latest `orderedPieces` are kept joined from then
	 * on; those stay apart, so a late delta can still go before them.
	 */
	#body(): string {
		// The older pieces are joined once, into the piece that stands for them, and the body is made from that.
		const keep = this.#pieces.length - orderedPieces;
		if (keep > 1) {
			this.#pieces.splice(0, keep, this.#pieces.slice(0, keep).join(''));
			this.#times.splice(0, keep, this.#times[keep - 1]!);
		}

		return this.#pieces.length === 1 ? this.#pieces[0]! : this.#pieces.join('');
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
		this.#times = [this.#times.at(-1) ?? Number.NaN];
		this.#length = tail.length;
	}
}

/** How many of the latest deltas stay apart, so that one that comes late still goes in its place. */
const orderedPieces = 32;

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
