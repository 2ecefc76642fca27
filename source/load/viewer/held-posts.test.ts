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
