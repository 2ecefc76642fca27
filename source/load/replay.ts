import {Ingest} from './ingest.js';
import type {EventRef} from '../model/events.js';
import type {ParsedItem} from '../parse/dialects/stream-dialect.js';
import {timestampOf} from '../parse/dialects/common.js';
import type {Line, OverlongLine} from '../parse/line-splitter.js';
import {defaultMaxGapMs} from '../query/replay-speed.js';

/*
 * Replay: a saved log played back with its original timing, so a person can watch a run as it happened.
 * Lines are read as fast as ever, but held in a queue and handed to the model only when their moment
 * comes. The moment is the event's own timestamp, taken from the raw line with one regular expression
 * before any JSON is parsed. Each source awaits the queue's drain after every chunk, so reading never
 * runs more than a chunk ahead of what has been shown.
 */

export {defaultMaxGapMs, nextSpeed, parseReplaySpeed, replaySpeeds} from '../query/replay-speed.js';

/** When the consumer falls behind (a slow terminal), the schedule slips rather than catching up in a burst. */
const maxLagMs = 100;

export type ReplayClock = {
	now: () => number;
	/** Resolves after `ms`, or at once when `signal` aborts; never rejects. */
	sleep: (ms: number, signal: AbortSignal) => Promise<void>;
};

export const systemClock: ReplayClock = {
	now: () => performance.now(),
	sleep: (ms, signal) =>
		new Promise(resolve => {
			if (signal.aborted) {
				resolve();
				return;
			}

			const done = () => {
				clearTimeout(timer);
				signal.removeEventListener('abort', done);
				resolve();
			};

			const timer = setTimeout(done, ms);
			signal.addEventListener('abort', done, {once: true});
		}),
};

// The first `"timestamp":` or `"ts":` key: Perstack's epoch milliseconds, drover's `ts` (milliseconds),
// the strategy daemon's ISO-8601 `ts` (which comes last in its lines). A key inside a JSON string has its
// quotes escaped, so it cannot match.
const timestampPattern = /"(?:timestamp|ts)"\s*:\s*(?:(\d+(?:\.\d+)?)|"([^"\\]{1,64})")/;

/** The event time of a raw line in epoch milliseconds, or undefined when it has none that can be read. */
export function eventTimeOf(text: string): number | undefined {
	const match = timestampPattern.exec(text);
	if (!match) return undefined;
	const value = match[1] !== undefined ? Number(match[1]) : Date.parse(match[2] ?? '');
	return Number.isFinite(value) ? value : undefined;
}

export type ReplayOptions = {
	/** 1 is real time, 10 ten times faster. Default 1. */
	speed?: number;
	maxGapMs?: number;
	clock?: ReplayClock;
};

/**
 * The pacing: when each event may be shown. A view binds its keys to `pause`, `resume`, `setSpeed`; the
 * controls take effect at once, also in the middle of a wait. Time only moves forward: an event stamped
 * earlier than one already shown (real logs have a few) is shown at once.
 */
export class Replay {
	readonly #clock: ReplayClock;
	readonly #maxGapMs: number;
	#speed: number;
	#paused = false;
	#pausedAt = 0;
	#finished = false;
	/** Log time of the latest event shown, and the clock time it was due. */
	#logAt: number | undefined;
	#wallAt = 0;
	#wake = new AbortController();
	readonly #listeners = new Set<() => void>();

	constructor(options: ReplayOptions = {}) {
		this.#clock = options.clock ?? systemClock;
		this.#maxGapMs = options.maxGapMs ?? defaultMaxGapMs;
		this.#speed = checkedSpeed(options.speed ?? 1);
	}

	get speed(): number {
		return this.#speed;
	}

	get paused(): boolean {
		return this.#paused;
	}

	/** Pacing has ended for good (`finish`): everything left is shown at once. */
	get finished(): boolean {
		return this.#finished;
	}

	/** Keeps the progress through the current wait: half-way through a gap stays half-way at the new speed. */
	setSpeed(speed: number): void {
		const next = checkedSpeed(speed);
		if (next === this.#speed) return;
		const reference = this.#paused ? this.#pausedAt : this.#clock.now();
		const elapsedLogMs = (reference - this.#wallAt) * this.#speed;
		this.#speed = next;
		this.#wallAt = reference - elapsedLogMs / next;
		this.#changed();
	}

	pause(): void {
		if (this.#paused || this.#finished) return;
		this.#paused = true;
		this.#pausedAt = this.#clock.now();
		this.#changed();
	}

	resume(): void {
		if (!this.#paused) return;
		this.#paused = false;
		// The pause does not count as time played.
		this.#wallAt += this.#clock.now() - this.#pausedAt;
		this.#changed();
	}

	togglePause(): void {
		if (this.#paused) this.resume();
		else this.pause();
	}

	/** Stops pacing: the rest is shown as fast as it is read (quitting, or the user wants the end now). */
	finish(): void {
		if (this.#finished) return;
		this.#finished = true;
		this.#paused = false;
		this.#changed();
	}

	/** Called after every change of speed or pause, so a view can redraw its replay indicator. */
	subscribe(listener: () => void): () => void {
		this.#listeners.add(listener);
		return () => {
			this.#listeners.delete(listener);
		};
	}

	/** Whether an event stamped `timestamp` would have to wait now (so a caller can draw what it has first). */
	mustWait(timestamp: number | undefined): boolean {
		if (this.#finished) return false;
		if (this.#paused) return true;
		if (timestamp === undefined || this.#logAt === undefined) return false;
		const gap = Math.min(timestamp - this.#logAt, this.#maxGapMs);
		return gap > 0 && this.#wallAt + gap / this.#speed > this.#clock.now();
	}

	/** Resolves when an event stamped `timestamp` is due. An event without a time is due at once (unless paused). */
	async wait(timestamp: number | undefined): Promise<void> {
		await this.#whilePaused();
		if (this.#finished || timestamp === undefined) return;
		if (this.#logAt === undefined) {
			this.#logAt = timestamp;
			this.#wallAt = this.#clock.now();
			return;
		}

		const gap = Math.min(timestamp - this.#logAt, this.#maxGapMs);
		if (gap <= 0) return;
		let due = this.#wallAt + gap / this.#speed;
		for (;;) {
			if (this.#finished) break;
			if (this.#paused) {
				await this.#whilePaused();
				continue;
			}

			due = this.#wallAt + gap / this.#speed;
			const remaining = due - this.#clock.now();
			if (remaining <= 0) break;
			await this.#clock.sleep(remaining, this.#wake.signal);
		}

		this.#logAt = timestamp;
		this.#wallAt = Math.max(due, this.#clock.now() - maxLagMs);
	}

	async #whilePaused(): Promise<void> {
		while (this.#paused && !this.#finished) {
			const {signal} = this.#wake;
			await new Promise<void>(resolve => {
				signal.addEventListener('abort', () => resolve(), {once: true});
			});
		}
	}

	#changed(): void {
		this.#wake.abort();
		this.#wake = new AbortController();
		for (const listener of this.#listeners) listener();
	}
}

function checkedSpeed(speed: number): number {
	// A caller bug, not user input (the command line goes through parseReplaySpeed): fail loudly.
	if (!Number.isFinite(speed) || speed <= 0) throw new RangeError(`replay speed must be a positive number, got ${String(speed)}`);
	return speed;
}

type Queued =
	| {kind: 'line'; line: Line; at: number | undefined}
	| {kind: 'parsed'; parsed: ParsedItem; at: number | undefined}
	| {kind: 'overlong'; line: OverlongLine};

/** When a line parsed ahead happened: its event's time, or a record's own `timestamp`. */
function parsedTime(parsed: ParsedItem): number | undefined {
	if (parsed.kind === 'event') return parsed.event.timestamp;
	return parsed.kind === 'record' ? timestampOf(parsed.value['timestamp']) : undefined;
}

export type ReplayIngestOptions = ConstructorParameters<typeof Ingest>[0] & {replay: Replay};

/**
 * An Ingest whose lines wait for their moment. Every source already awaits its `afterChunk` hook after
 * each chunk; awaiting `drain()` there is all it takes to replay any input (files, .gz, job directories,
 * stdin) through the ordinary `runSources`:
 *
 *   const ingest = new ReplayIngest({maxLineBytes, replay});
 *   runSources(plan, ingest, {afterChunk: () => ingest.drain(flushOutput)});
 */
export class ReplayIngest extends Ingest {
	readonly replay: Replay;
	readonly #queue: Queued[] = [];
	#head = 0;
	#draining: Promise<void> | undefined;

	constructor(options: ReplayIngestOptions) {
		const {replay, ...rest} = options;
		super(rest);
		this.replay = replay;
	}

	/** Lines read but not yet shown. */
	get pending(): number {
		return this.#queue.length - this.#head;
	}

	override line(line: Line): void {
		this.#queue.push({kind: 'line', line, at: eventTimeOf(line.text)});
	}

	/** The splitter's bytes are reused once the call returns: a waiting line is kept as its text. */
	override lineBytes(bytes: Buffer, start: number, end: number, ref: EventRef): void {
		this.line({source: ref.source, line: ref.line, offset: ref.offset, text: bytes.toString('utf8', start, end)});
	}

	/** Lines parsed ahead by the parallel loader wait too; their event already holds its time. */
	override parsed(parsed: ParsedItem): void {
		this.#queue.push({kind: 'parsed', parsed, at: parsedTime(parsed)});
	}

	override overlong(line: OverlongLine): void {
		this.#queue.push({kind: 'overlong', line});
	}

	/**
	 * Hands the queued lines to the model, each when it is due. `beforeWait` runs before every actual
	 * wait, so output for what is already in the model can be written (and the screen drawn) first.
	 * Concurrent calls (stdin and a file at once) share one drain, so lines keep their order.
	 */
	drain(beforeWait?: () => void | Promise<void>): Promise<void> {
		this.#draining ??= this.#drain(beforeWait).finally(() => {
			this.#draining = undefined;
		});
		return this.#draining;
	}

	async #drain(beforeWait: (() => void | Promise<void>) | undefined): Promise<void> {
		while (this.#head < this.#queue.length) {
			const item = this.#queue[this.#head]!;
			this.#head++;
			if (item.kind === 'overlong') {
				super.overlong(item.line);
				continue;
			}

			if (this.replay.mustWait(item.at)) await beforeWait?.();
			await this.replay.wait(item.at);
			if (item.kind === 'parsed') super.parsed(item.parsed);
			else super.line(item.line);
		}

		this.#queue.length = 0;
		this.#head = 0;
	}
}
