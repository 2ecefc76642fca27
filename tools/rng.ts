/*
 * Seeded randomness for the log generator (generate-log.ts): the same seed always gives the same log.
 */

/** mulberry32: a tiny, fast 32-bit PRNG; good enough for test data and fully deterministic. */
function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';
const MIXED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export class Rng {
	private readonly next: () => number;

	constructor(seed: number) {
		this.next = mulberry32(seed);
	}

	float(): number {
		return this.next();
	}

	/** Integer in [lo, hi]. */
	int(lo: number, hi: number): number {
		return lo + Math.floor(this.next() * (hi - lo + 1));
	}

	chance(p: number): boolean {
		return this.next() < p;
	}

	pick<T>(items: readonly T[]): T {
		const item = items[Math.floor(this.next() * items.length)];
		if (item === undefined) throw new Error('pick from an empty list');
		return item;
	}

	/** A 24-character lowercase id like the runtime's (cuid2-style: starts with a letter). */
	id(): string {
		let s = LOWER[Math.floor(this.next() * 26)] ?? 'a';
		for (let i = 1; i < 24; i++) s += LOWER[Math.floor(this.next() * 36)] ?? '0';
		return s;
	}

	toolUseId(): string {
		let s = 'toolu_01';
		for (let i = 0; i < 22; i++) s += MIXED[Math.floor(this.next() * 62)] ?? 'A';
		return s;
	}

	signature(): string {
		let s = 'Eq';
		for (let i = 0; i < 86; i++) s += MIXED[Math.floor(this.next() * 62)] ?? 'A';
		return `${s}==`;
	}
}
