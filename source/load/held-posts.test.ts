import {describe, expect, it} from 'vitest';
import {HeldPosts} from './held-posts.js';

/*
 * The load worker's posts on their way into the viewer's model: in the order they came, a part at a time on
 * turns of their own, never while the views read the model in slices.
 */

function harness(partsOf: (post: string) => number) {
	const turns: Array<() => void> = [];
	const queue = (step: () => void) => {
		turns.push(step);
		return () => {
			const at = turns.indexOf(step);
			if (at !== -1) turns.splice(at, 1);
		};
	};

	let held = false;
	let clock = 0;
	const parts: string[] = [];
	const posts = new HeldPosts<string>({
		held: () => held,
		*inParts(post) {
			for (let part = 1; part <= partsOf(post); part++) {
				parts.push(`${post}${part}`);
				if (part < partsOf(post)) yield;
			}
		},
		soon: queue,
		later: queue,
		// Every look at the clock is past a turn's time: one part a turn.
		now: () => (clock += 100),
	});
	const runTurn = () => turns.shift()?.();
	return {posts, parts, turns, runTurn, hold: (on: boolean) => (held = on)};
}

describe('posts on their way into the model', () => {
	it('go in on a turn of their own, never in the turn that offered them, a part a turn, in order', () => {
		const {posts, parts, runTurn} = harness(post => (post === 'a' ? 3 : 1));
		const done: string[] = [];
		posts.offer('a', () => done.push('a'));
		posts.offer('b', () => done.push('b'));
		expect(parts).toEqual([]);
		runTurn();
		expect(parts).toEqual(['a1']);
		expect(posts.partWay).toBe(true);
		runTurn();
		runTurn();
		expect(parts).toEqual(['a1', 'a2', 'a3']);
		expect(done).toEqual(['a']);
		runTurn();
		expect(parts).toEqual(['a1', 'a2', 'a3', 'b1']);
		expect(done).toEqual(['a', 'b']);
		expect(posts.waiting).toBe(0);
		expect(posts.partWay).toBe(false);
	});

	it('wait while the views read the model in slices, a post part way in included, and go on once they are done', () => {
		const {posts, parts, runTurn, hold} = harness(() => 2);
		posts.offer('a');
		runTurn();
		expect(parts).toEqual(['a1']);
		hold(true);
		runTurn();
		runTurn();
		expect(parts).toEqual(['a1']);
		expect(posts.waiting).toBe(1);
		hold(false);
		runTurn();
		expect(parts).toEqual(['a1', 'a2']);
	});

	it('once stopped, put nothing more in, and tell whoever waits on them', () => {
		const {posts, parts, turns, runTurn} = harness(() => 2);
		const told: string[] = [];
		posts.offer('a', () => told.push('a'));
		posts.offer('b', () => told.push('b'));
		runTurn();
		posts.stop();
		expect(told).toEqual(['a', 'b']);
		expect(turns).toEqual([]);
		expect(parts).toEqual(['a1']);
	});
});
