import {describe, expect, it} from 'vitest';
import {createModel} from '../model/state.js';
import {ViewStore} from './view-store.js';

/*
 * How often events redraw the screen, on the store's own clock (no real time passes here). Every frame
 * Ink draws costs the whole screen, so events redraw at most ten times a second, and less when frames
 * are expensive; moments the person waits on are drawn at once.
 */

function storeAt(clock: {now: number}, loading = () => false) {
	const model = createModel();
	const store = new ViewStore(model, {now: () => clock.now, loading});
	let published = 0;
	store.subscribe(() => published++);
	const event = () => {
		model.rev++;
		model.events++;
	};

	return {store, event, published: () => published};
}

describe('redrawing while events arrive', () => {
	it('draws a steady stream of events ten times a second, even when the timer ticks a little early', () => {
		const clock = {now: 0};
		const {store, event, published} = storeAt(clock);
		for (let tick = 0; tick < 50; tick++) {
			for (let i = 0; i < 500; i++) event();
			// The timer's ticks wander by a few milliseconds either way.
			clock.now += tick % 2 === 0 ? 97 : 103;
			store.tick();
		}

		expect(published()).toBe(50);
	});

	it('does not draw again when nothing changed', () => {
		const clock = {now: 0};
		const {store, event, published} = storeAt(clock);
		event();
		clock.now += 100;
		store.tick();
		clock.now += 100;
		store.tick();
		expect(published()).toBe(1);
	});

	it('spreads redraws out when frames are expensive to build and draw', () => {
		const clock = {now: 0};
		const {store, event, published} = storeAt(clock);
		store.noteRowsCost(60);
		store.noteDrawCost(40);
		for (let tick = 0; tick < 30; tick++) {
			event();
			clock.now += 100;
			store.tick();
		}

		// Three times the cost of a frame (300 ms) between redraws: ten in three seconds.
		expect(published()).toBe(10);
	});

	it('counts the whole of a published frame, the views’ render too, not only the rows and Ink’s drawing (a day’s live stream: the header’s totals and a search grew with the log, and frames kept coming ten times a second)', () => {
		const clock = {now: 0};
		const {store, event, published} = storeAt(clock);
		for (let tick = 0; tick < 30; tick++) {
			event();
			clock.now += 100;
			const before = published();
			store.tick();
			if (published() === before) continue;
			// The frame: 90 ms in the views' render, 10 ms in Ink's drawing, which is all Ink reports.
			clock.now += 90;
			store.noteRowsCost(5);
			clock.now += 10;
			store.noteDrawCost(10);
		}

		// Three times the whole frame (100 ms) between redraws: one every other tick, the frame's own 100 ms in the
		// gap. Three times the 15 ms of the rows and Ink's drawing is less than a tick: every tick drew (30).
		expect(published()).toBe(15);
	});

	it('a draw no publish caused (a key’s) is not taken for a frame of the stream, and keeps the last frame’s cost', () => {
		const clock = {now: 0};
		const {store, event, published} = storeAt(clock);
		event();
		clock.now += 100;
		store.tick();
		clock.now += 200;
		store.noteDrawCost(10);
		// A key's draw long after: its time since the publish is no frame's.
		clock.now += 5000;
		store.noteDrawCost(10);
		for (let tick = 0; tick < 30; tick++) {
			event();
			clock.now += 100;
			store.tick();
		}

		// Three times 200 ms between redraws: five in three seconds.
		expect(published()).toBe(1 + 5);
	});

	it('draws four times a second while a file loads as fast as it can, then ten times a second again', () => {
		const clock = {now: 0};
		let loading = true;
		const {store, event, published} = storeAt(clock, () => loading);
		const second = () => {
			for (let tick = 0; tick < 10; tick++) {
				event();
				clock.now += 100;
				store.tick();
			}
		};

		second();
		expect(published()).toBe(4);
		loading = false;
		second();
		expect(published()).toBe(14);
	});

	it('keeps to ten times the cost of a frame, past a second, while a file loads, and to a second after', () => {
		const clock = {now: 0};
		let loading = true;
		const {store, event, published} = storeAt(clock, () => loading);
		store.noteRowsCost(500);
		store.noteDrawCost(100);
		const seconds = (count: number) => {
			for (let tick = 0; tick < 10 * count; tick++) {
				event();
				clock.now += 100;
				store.tick();
			}
		};

		// 6 s between redraws of a tree that costs 0.6 s: 1 in 6 s (the first at once), where a second apart would be 6.
		seconds(6);
		expect(published()).toBe(1);
		loading = false;
		seconds(6);
		expect(published()).toBe(7);
	});

	it('draws the progress of a load four times a second while its new models wait for their gap', () => {
		const clock = {now: 0};
		const {store, published} = storeAt(clock, () => true);
		store.noteRowsCost(500);
		store.noteDrawCost(100);
		clock.now += 100;
		store.tick();
		const drawn = store.model;
		const next = {...createModel(), events: 10, rev: 5};
		store.setModel(next);
		let progress = 0;
		for (let tick = 0; tick < 20; tick++) {
			next.events += 100;
			store.markChanged();
			clock.now += 100;
			store.tick();
			if (store.model === drawn) progress = published();
		}

		// Two seconds: the new model waits its 6 s, the progress is drawn every 250 ms with the model on screen,
		// which shows the count of events of the newest (as of the last of those frames).
		expect(store.model).toBe(drawn);
		expect(progress).toBeGreaterThanOrEqual(7);
		expect(drawn.events).toBeGreaterThan(next.events - 300);
		clock.now += 4000;
		store.tick();
		expect(store.model).toBe(next);
	});

	it('draws the end of a load at once rather than on the next tick', () => {
		const clock = {now: 0};
		const {store, event, published} = storeAt(clock);
		event();
		clock.now += 100;
		store.tick();
		event();
		store.markChanged();
		clock.now += 5;
		store.flush();
		expect(published()).toBe(2);
	});
});

describe('a model replaced by a load in a worker', () => {
	it('is drawn on the next tick, even at the same rev, and the views read it from then on', () => {
		const clock = {now: 0};
		const {store, published} = storeAt(clock);
		clock.now += 100;
		store.tick();
		clock.now += 100;
		store.tick();
		expect(published()).toBe(1);
		const before = store.model;
		const next = {...createModel(), events: 7};
		store.setModel(next);
		// Keys read what is on the screen until the tick draws the new model.
		expect(store.model).toBe(before);
		clock.now += 100;
		store.tick();
		expect(published()).toBe(2);
		expect(store.model).toBe(next);
		expect(store.eventsPerSecond).toBeGreaterThan(0);
	});
});

describe('the rate of events', () => {
	it('counts from when the viewer started, so the first frame drawn during a load already shows it', () => {
		const clock = {now: 0};
		const {store, event} = storeAt(clock);
		for (let i = 0; i < 5000; i++) event();
		clock.now = 500;
		store.tick();
		expect(store.eventsPerSecond).toBe(10_000);
	});

	it('regression: a model with fewer events than the one before (a load starting over) made the rate negative (-14345/s)', () => {
		const clock = {now: 0};
		const {store, event} = storeAt(clock);
		for (let tick = 0; tick < 10; tick++) {
			for (let i = 0; i < 100; i++) event();
			clock.now += 100;
			store.tick();
		}

		expect(store.eventsPerSecond).toBe(1000);
		store.setModel({...createModel(), events: 10});
		for (let tick = 0; tick < 25; tick++) {
			clock.now += 100;
			store.tick();
			expect(store.eventsPerSecond).toBeGreaterThanOrEqual(0);
		}
	});
});

describe('a stream gone quiet (#33: a viewer left open for a day)', () => {
	it('stops its tick once nothing has come for two seconds, and starts it again with the next chunk', () => {
		const clock = {now: 0};
		const {store, event, published} = storeAt(clock);
		store.start();
		try {
			for (let tick = 0; tick < 10; tick++) {
				event();
				clock.now += 100;
				store.tick();
			}

			expect(store.ticking).toBe(true);
			// Quiet: the rate falls to 0 (drawn once), then twenty ticks with nothing to draw put the tick to sleep.
			for (let tick = 0; tick < 50 && store.ticking; tick++) {
				clock.now += 100;
				store.tick();
			}

			expect(store.ticking).toBe(false);
			expect(clock.now).toBeLessThanOrEqual(1000 + 2000 + 2100);
			const drawn = published();
			// The load says a chunk was reduced: the tick runs again and draws it.
			event();
			store.markChanged();
			expect(store.ticking).toBe(true);
			clock.now += 100;
			store.tick();
			expect(published()).toBe(drawn + 1);
		} finally {
			store.stop();
		}

		expect(store.ticking).toBe(false);
	});

	it('draws the rate coming down to 0 once events stop, instead of leaving the last rate on screen', () => {
		const clock = {now: 0};
		const {store, event, published} = storeAt(clock);
		for (let tick = 0; tick < 10; tick++) {
			for (let i = 0; i < 50; i++) event();
			clock.now += 100;
			store.tick();
		}

		expect(store.eventsPerSecond).toBeGreaterThan(0);
		const drawn = published();
		for (let tick = 0; tick < 30; tick++) {
			clock.now += 100;
			store.tick();
		}

		expect(store.eventsPerSecond).toBe(0);
		expect(published()).toBe(drawn + 1);
	});

	it('does not sleep while its owner says a change may come unannounced (a load in a worker still putting posts in)', () => {
		const clock = {now: 0};
		let mayRest = false;
		const store = new ViewStore(createModel(), {now: () => clock.now, mayRest: () => mayRest});
		store.start();
		try {
			for (let tick = 0; tick < 100; tick++) {
				clock.now += 100;
				store.tick();
			}

			expect(store.ticking).toBe(true);
			mayRest = true;
			for (let tick = 0; tick < 30; tick++) {
				clock.now += 100;
				store.tick();
			}

			expect(store.ticking).toBe(false);
		} finally {
			store.stop();
		}
	});

	it('does not sleep while a file loads, whose progress it draws', () => {
		const clock = {now: 0};
		const {store} = storeAt(clock, () => true);
		store.start();
		try {
			for (let tick = 0; tick < 100; tick++) {
				clock.now += 100;
				store.tick();
			}

			expect(store.ticking).toBe(true);
		} finally {
			store.stop();
		}
	});
});

describe('which loads change the model in place', () => {
	it("says so of a model whose revision moves while it stays the same object (a load on the viewer's thread), not of one replaced at each post (a worker's)", () => {
		const clock = {now: 0};
		const {store} = storeAt(clock);
		store.flush();
		expect(store.changedInPlace).toBe(false);
		// A worker's load: a new model object at each post.
		for (let post = 0; post < 3; post++) {
			const posted = {...store.model, rev: store.model.rev + 1};
			store.setModel(posted);
			clock.now += 1000;
			store.tick();
			expect(store.model).toBe(posted);
			expect(store.changedInPlace).toBe(false);
		}

		// A load on this thread: the same model, its revision moved.
		const inPlace = createModel();
		store.setModel(inPlace);
		clock.now += 1000;
		store.tick();
		expect(store.changedInPlace).toBe(false);
		inPlace.rev++;
		clock.now += 1000;
		store.tick();
		expect(store.changedInPlace).toBe(true);
		// Unchanged since, it still is one such load's model.
		clock.now += 1000;
		store.tick();
		expect(store.changedInPlace).toBe(true);
	});
});
