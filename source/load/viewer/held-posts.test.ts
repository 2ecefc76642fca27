import {describe, expect, it} from 'vitest';
import {manualScheduler} from '../../../test/helpers/manual-scheduler.js';
import {HeldPosts} from './held-posts.js';

/*
 * The load worker's posts on their way into the viewer's model: in the order they came, a part at a time on
 * turns of their own, never while the views read the model in slices; and while one is part way, the views'
 * work that reads the model waits to begin (slices/turns.ts).
 */

function harness(partsOf: (post: string) => number) {
	// Each look at the clock is past a turn's time: one part a turn.
	const scheduler = manualScheduler({tick: 100});
	const parts: string[] = [];
	const posts = new HeldPosts<string>({
		*inParts(post) {
			for (let part = 1; part <= partsOf(post); part++) {
				parts.push(`${post}${part}`);
				if (part < partsOf(post)) yield;
			}
		},
		scheduler,
	});
	return {posts, parts, scheduler, turns: scheduler.pending, runTurn: scheduler.runOne};
}

describe('posts on their way into the model', () => {
	it('go in on a turn of their own, never in the turn that offered them, a part a turn, in order', () => {
		const {posts, parts, runTurn, scheduler} = harness(post => (post === 'a' ? 3 : 1));
		const done: string[] = [];
		posts.offer('a', () => done.push('a'));
		posts.offer('b', () => done.push('b'));
		expect(parts).toEqual([]);
		runTurn();
		expect(parts).toEqual(['a1']);
		expect(posts.partWay).toBe(true);
		expect(scheduler.turns.changing).toBe(true);
		runTurn();
		runTurn();
		expect(parts).toEqual(['a1', 'a2', 'a3']);
		expect(done).toEqual(['a']);
		runTurn();
		expect(parts).toEqual(['a1', 'a2', 'a3', 'b1']);
		expect(done).toEqual(['a', 'b']);
		expect(posts.waiting).toBe(0);
		expect(posts.partWay).toBe(false);
		expect(scheduler.turns.changing).toBe(false);
	});

	it('wait while the views read the model in slices, and go on once they are done', () => {
		const {posts, parts, runTurn, scheduler} = harness(() => 2);
		const reader = {};
		expect(scheduler.turns.startReading(reader)).toBe(true);
		posts.offer('a');
		runTurn();
		runTurn();
		expect(parts).toEqual([]);
		expect(posts.waiting).toBe(1);
		scheduler.turns.stopReading(reader);
		runTurn();
		expect(parts).toEqual(['a1']);
		runTurn();
		expect(parts).toEqual(['a1', 'a2']);
	});

	it('while one is part way in, work that reads the model waits to begin, and begins once it is in', () => {
		const {posts, parts, runTurn, scheduler} = harness(() => 2);
		posts.offer('a');
		runTurn();
		expect(parts).toEqual(['a1']);
		const read: string[] = [];
		scheduler.run(
			() => {
				read.push([...parts].join(','));
				return true;
			},
			{reads: true},
		);
		// The post's next part and the reader's retries take turns: the reader sees the post whole.
		scheduler.runAll();
		expect(read).toEqual(['a1,a2']);
		expect(scheduler.turns.reading).toBe(false);
	});

	it('let a reader refused while one was part way go before the next post: a filter Enter on a log still streaming in waited 5 s for the whole backlog', () => {
		// A short tick: a turn puts in 8 parts of posts of 21, so a post mostly ends and the next begins inside a turn,
		// and one is part way at the end of the turn (as a real post of thousands of events spans many turns).
		const scheduler = manualScheduler({tick: 1});
		const parts: string[] = [];
		const posts = new HeldPosts<string>({
			*inParts(post) {
				for (let part = 1; part <= 21; part++) {
					parts.push(`${post}${part}`);
					if (part < 21) yield;
				}
			},
			scheduler,
		});
		const names = Array.from({length: 20}, (_, index) => `p${index}.`);
		for (const name of names) posts.offer(name);
		scheduler.runOne();
		expect(posts.partWay).toBe(true);
		const read: number[] = [];
		scheduler.run(
			() => {
				read.push(parts.length);
				return true;
			},
			{reads: true},
		);
		scheduler.runAll();
		// It read once, as soon as the post part way when it was refused was in; then the rest went in.
		expect(read).toEqual([21]);
		expect(parts).toHaveLength(names.length * 21);
		expect(scheduler.turns.readerWaiting).toBe(false);
	});

	it('begin again once a reader that was refused stops without reading (a filter dropped for a newer one)', () => {
		const {posts, parts, runTurn, scheduler} = harness(() => 3);
		posts.offer('a');
		posts.offer('b');
		runTurn();
		const task = scheduler.run(() => true, {reads: true});
		runTurn();
		// The reader's first try, 'a' part way: refused.
		runTurn();
		expect(scheduler.turns.readerWaiting).toBe(true);
		task.cancel();
		expect(scheduler.turns.readerWaiting).toBe(false);
		scheduler.runAll();
		expect(parts).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3']);
	});

	it('tell whoever waits on every post offered so far once the last of them is in, after its own `then`; at once when none waits', () => {
		const {posts, parts, runTurn} = harness(post => (post === 'a' ? 2 : 1));
		const told: string[] = [];
		posts.whenIn(() => told.push('none waiting'));
		expect(told).toEqual(['none waiting']);
		posts.offer('a', () => told.push('a'));
		runTurn();
		// Part way: it waits on the post going in.
		posts.whenIn(() => told.push('after a'));
		posts.offer('b', () => told.push('b'));
		posts.whenIn(() => told.push('after b'));
		runTurn();
		expect(told).toEqual(['none waiting', 'a', 'after a']);
		runTurn();
		expect(parts).toEqual(['a1', 'a2', 'b1']);
		expect(told).toEqual(['none waiting', 'a', 'after a', 'b', 'after b']);
	});

	it('once stopped, put nothing more in, and tell whoever waits on them', () => {
		const {posts, parts, turns, runTurn, scheduler} = harness(() => 2);
		const told: string[] = [];
		posts.offer('a', () => told.push('a'));
		posts.offer('b', () => told.push('b'));
		runTurn();
		posts.stop();
		expect(told).toEqual(['a', 'b']);
		expect(turns).toEqual([]);
		expect(parts).toEqual(['a1']);
		expect(scheduler.turns.changing).toBe(false);
	});
});
