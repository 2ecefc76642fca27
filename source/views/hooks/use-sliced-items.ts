import {useEffect, useMemo, useState, type DependencyList} from 'react';
import type {Scheduler} from '../../slices/scheduler.js';

/**
 * The items `make` gives, made a slice at a time on the viewer's scheduler: the first slice as the view renders
 * (a small text is whole before its frame), the rest between keys and frames, the view drawn again after each. The
 * list grows in place; `done` once it is whole. Made again when `deps` change.
 */
export function useSlicedItems<T>(scheduler: Scheduler, make: () => Iterator<T>, deps: DependencyList): {items: readonly T[]; done: boolean} {
	const made = useMemo(() => {
		const iterator = make();
		const items: T[] = [];
		return {iterator, items, done: pull(iterator, items, scheduler.keyDeadline(), scheduler)};
		// The caller's deps are what `make` reads.
	}, deps);
	const [, drawAgain] = useState(0);
	useEffect(() => {
		if (made.done) return undefined;
		const task = scheduler.run(until => {
			made.done = pull(made.iterator, made.items, until, scheduler);
			drawAgain(version => version + 1);
			return made.done;
		});
		return () => task.cancel();
	}, [made, scheduler]);
	return made;
}

/** Items taken until `until` (the scheduler's clock, looked at every few hundred); whether there are no more. */
function pull<T>(iterator: Iterator<T>, items: T[], until: number, scheduler: Scheduler): boolean {
	do {
		for (let count = 0; count < 256; count++) {
			const next = iterator.next();
			if (next.done) return true;
			items.push(next.value);
		}
	} while (scheduler.now() < until);
	return false;
}
