/**
 * Streaming text for one channel of one step. Deltas are kept as pieces and joined only when read
 * (and then cached), so a long stream costs linear time, not a copy per delta. The completed text,
 * when it arrives, wins over the deltas, and later deltas cannot overwrite it.
 *
 * Memory is bounded: past `cap` characters only the head and the tail are kept, with a marker saying
 * how much was cut from the middle.
 */
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
			const body = this.#pieces.length === 1 ? this.#pieces[0]! : this.#pieces.join('');
			this.#pieces = body === '' ? [] : [body];
			this.#joined = this.#cut > 0 ? `${this.#head}${cutMarker(this.#cut)}${body}` : body;
		}

		return this.#joined;
	}

	#compact(): void {
		const half = Math.floor(this.#cap / 2);
		const body = this.#pieces.join('');
		if (this.#cut === 0) this.#head = body.slice(0, half);
		const keepFrom = body.length - half;
		this.#cut += keepFrom - (this.#cut === 0 ? half : 0);
		const tail = body.slice(keepFrom);
		this.#pieces = [tail];
		this.#length = tail.length;
	}
}

function cutMarker(count: number): string {
	return `\n… [${count} characters cut] …\n`;
}

export function capText(text: string, cap: number): string {
	if (text.length <= cap) return text;
	const half = Math.floor(cap / 2);
	return `${text.slice(0, half)}${cutMarker(text.length - 2 * half)}${text.slice(text.length - half)}`;
}
