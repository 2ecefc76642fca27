import {describe, expect, it} from 'vitest';
import {defaultMaxGapMs, eventTimeOf, nextSpeed, parseReplaySpeed, Replay, ReplayIngest, replaySpeeds, type ReplayClock} from './replay.js';
import {perstackLine} from '../../test/helpers/load.js';

/** A clock that only moves when the test says so; sleepers wake in time order. */
function fakeClock() {
	let now = 0;
	const sleepers = new Set<{at: number; wake: () => void}>();
	const clock: ReplayClock = {
		now: () => now,
		sleep: (ms, signal) =>
			new Promise(resolve => {
				if (signal.aborted) {
					resolve();
					return;
				}

				const sleeper = {
					at: now + ms,
					wake: () => {
						sleepers.delete(sleeper);
						resolve();
					},
				};
				sleepers.add(sleeper);
				signal.addEventListener('abort', sleeper.wake, {once: true});
			}),
	};
	const settle = () => new Promise(resolve => setImmediate(resolve));
	return {
		clock,
		get now() {
			return now;
		},
		settle,
		/** Moves time forward by `ms`, waking each sleeper at its moment and letting it run. */
		async advance(ms: number) {
			const target = now + ms;
			await settle();
			for (;;) {
				const next = [...sleepers].sort((a, b) => a.at - b.at)[0];
				if (!next || next.at > target) break;
				now = Math.max(now, next.at);
				next.wake();
				await settle();
			}

			now = target;
			await settle();
		},
	};
}

/** A replaying ingest fed with event lines stamped at the given times; it records when each line was shown. */
function replayOf(stamps: Array<number | undefined>, options: {speed?: number} = {}) {
	const time = fakeClock();
	const replay = new Replay({clock: time.clock, speed: options.speed ?? 1});
	const shown: Array<{n: number; at: number}> = [];
	const ingest = new ReplayIngest({
		maxLineBytes: 1024 * 1024,
		replay,
		onLine: line => shown.push({n: Number(/"n":(\d+)/.exec(line.text)?.[1]), at: time.now}),
	});
	const text = stamps
		.map((stamp, n) =>
			stamp === undefined ? JSON.stringify({type: 'startRun', n}) : perstackLine('retry', {reason: 'r', n}, {timestamp: 1_700_000_000_000 + stamp}),
		)
		.join('\n');
	const splitter = ingest.splitter('test');
	splitter.push(Buffer.from(`${text}\n`));
	const drained = ingest.drain();
	return {time, replay, ingest, shown, drained};
}

describe('reading an event time from a raw line', () => {
	it('Perstack timestamp, drover ts (epoch ms) and the daemon ISO ts', () => {
		expect(eventTimeOf('{"type":"startRun","timestamp":1795381245035,"jobId":"j"}')).toBe(1795381245035);
		expect(eventTimeOf('{"kind":"run_start","runId":"r","ts":1795389000037}')).toBe(1795389000037);
		expect(eventTimeOf('{"type":"step_started","message":"hi","ts":"2026-11-22T10:30:01.000Z"}')).toBe(Date.parse('2026-11-22T10:30:01.000Z'));
	});

	it('no time, an unreadable one, or one inside a string: none', () => {
		expect(eventTimeOf('{"type":"x"}')).toBeUndefined();
		expect(eventTimeOf('{"ts":"yesterday"}')).toBeUndefined();
		expect(eventTimeOf('{"text":"\\"timestamp\\":123"}')).toBeUndefined();
		expect(eventTimeOf('not json at all')).toBeUndefined();
	});
});

describe('the speed on the command line and from the keys', () => {
	it('--replay=SPEED takes a positive number, with or without an x', () => {
		expect(['1', '10', '10x', '0.5', '.5', '2.5X'].map(parseReplaySpeed)).toEqual([1, 10, 10, 0.5, 0.5, 2.5]);
		expect(['0', '-1', 'fast', '', '1e3', '10xx'].map(parseReplaySpeed)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
	});

	it('+ and - step through the speeds and stop at the ends', () => {
		expect(nextSpeed(1, 1)).toBe(2);
		expect(nextSpeed(1, -1)).toBe(0.5);
		expect(nextSpeed(3, 1)).toBe(5);
		expect(nextSpeed(3, -1)).toBe(2);
		expect(nextSpeed(replaySpeeds[replaySpeeds.length - 1]!, 1)).toBe(replaySpeeds[replaySpeeds.length - 1]);
		expect(nextSpeed(replaySpeeds[0], -1)).toBe(replaySpeeds[0]);
	});

	it('a speed that is not a positive number is a programming error', () => {
		expect(() => new Replay({speed: 0})).toThrow(RangeError);
		expect(() => new Replay().setSpeed(Number.NaN)).toThrow(RangeError);
	});
});

describe('pacing lines by their event times', () => {
	it('shows each line when its time comes, SPEED times as fast, in order', async () => {
		const {time, shown, drained} = replayOf([0, 100, 100, 1100], {speed: 2});
		await time.advance(0);
		expect(shown).toEqual([{n: 0, at: 0}]);
		await time.advance(49);
		expect(shown).toHaveLength(1);
		await time.advance(1);
		expect(shown.map(line => line.n)).toEqual([0, 1, 2]);
		await time.advance(500);
		await drained;
		expect(shown).toEqual([
			{n: 0, at: 0},
			{n: 1, at: 50},
			{n: 2, at: 50},
			{n: 3, at: 550},
		]);
	});

	it('a line without a time, or with an earlier time than one shown, is shown at once', async () => {
		const {time, shown, drained} = replayOf([0, 1000, undefined, 500, 1500]);
		await time.advance(1500);
		await drained;
		expect(shown.map(line => [line.n, line.at])).toEqual([
			[0, 0],
			[1, 1000],
			[2, 1000],
			[3, 1000],
			[4, 1500],
		]);
	});

	it(`an idle stretch longer than ${defaultMaxGapMs / 1000} s is cut to ${defaultMaxGapMs / 1000} s (divided by the speed)`, async () => {
		const {time, shown, drained} = replayOf([0, 3_600_000, 3_600_500], {speed: 4});
		await time.advance(10_000);
		await drained;
		expect(shown.map(line => line.at)).toEqual([0, defaultMaxGapMs / 4, defaultMaxGapMs / 4 + 125]);
	});

	it('pause holds everything, even lines that are already due; resume carries on where it was', async () => {
		const {time, replay, shown, drained} = replayOf([0, 1000, 1000]);
		await time.advance(400);
		replay.pause();
		expect(replay.paused).toBe(true);
		await time.advance(5000);
		expect(shown.map(line => line.n)).toEqual([0]);
		replay.resume();
		await time.advance(599);
		expect(shown.map(line => line.n)).toEqual([0]);
		await time.advance(1);
		await drained;
		expect(shown.map(line => [line.n, line.at])).toEqual([
			[0, 0],
			[1, 6000],
			[2, 6000],
		]);
	});

	it('a new speed applies at once, keeping the progress through the current wait', async () => {
		const {time, replay, shown, drained} = replayOf([0, 1000]);
		await time.advance(500);
		replay.setSpeed(10);
		expect(replay.speed).toBe(10);
		await time.advance(50);
		await drained;
		expect(shown.map(line => line.at)).toEqual([0, 550]);
	});

	it('finish shows the rest at once', async () => {
		const {time, replay, shown, drained} = replayOf([0, 1000, 2000, 3000]);
		await time.advance(10);
		replay.finish();
		await drained;
		expect(replay.finished).toBe(true);
		expect(shown.map(line => [line.n, line.at])).toEqual([
			[0, 0],
			[1, 10],
			[2, 10],
			[3, 10],
		]);
	});

	it('a view hears of every change of speed or pause', () => {
		const replay = new Replay({clock: fakeClock().clock});
		let changes = 0;
		const unsubscribe = replay.subscribe(() => changes++);
		replay.togglePause();
		replay.togglePause();
		replay.setSpeed(5);
		replay.setSpeed(5);
		unsubscribe();
		replay.pause();
		expect(changes).toBe(3);
	});

	it('drains started at once (two sources) share one queue and keep the order', async () => {
		const {time, ingest, shown, drained} = replayOf([0, 100, 200]);
		const again = ingest.drain();
		expect(again).toBe(drained);
		await time.advance(200);
		await Promise.all([drained, again]);
		expect(shown.map(line => line.n)).toEqual([0, 1, 2]);
		expect(ingest.pending).toBe(0);
	});

	it('the hook before a wait runs only when there is something to wait for', async () => {
		const time = fakeClock();
		const replay = new Replay({clock: time.clock});
		const ingest = new ReplayIngest({maxLineBytes: 1024, replay});
		const splitter = ingest.splitter('test');
		splitter.push(Buffer.from(`${[0, 0, 0, 100].map(stamp => perstackLine('retry', {reason: 'r'}, {timestamp: stamp})).join('\n')}\n`));
		let waits = 0;
		const drained = ingest.drain(() => {
			waits++;
		});
		await time.advance(100);
		await drained;
		expect(waits).toBe(1);
		expect(ingest.model.activities).toHaveLength(4);
	});
});
