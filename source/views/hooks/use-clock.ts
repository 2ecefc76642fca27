import {createContext, useContext, useEffect, useRef, useState} from 'react';
import {clockPeriodMs} from '../../view-model/live-time.js';

/*
 * The wall clock for what the viewer shows (elapsed time, how long ago the last event came). A context, so a
 * test gives a clock of its own and a short period instead of waiting on real seconds.
 */

export type Clock = {now: () => number; periodMs: number};

export const ClockContext = createContext<Clock>({now: Date.now, periodMs: clockPeriodMs});

/**
 * The time now; while `ticking`, the caller is drawn again every period even when no event comes. Not ticking
 * (nothing live, a finished log), no timer runs at all.
 */
export function useClock(ticking: boolean): number {
	const {now, periodMs} = useContext(ClockContext);
	const [, setTicks] = useState(0);
	useEffect(() => {
		if (!ticking) return;
		const timer = setInterval(
			() => {
				setTicks(ticks => ticks + 1);
			},
			Math.max(periodMs, 1),
		);
		return () => {
			clearInterval(timer);
		};
	}, [ticking, periodMs]);
	return now();
}

/**
 * When the event count last changed, as the clock saw it: when the last event arrived, whatever time the
 * event itself carries (a replay, a producer's skewed clock). Seen at each frame, so it is as exact as frames are.
 */
export function useLastArrival(events: number, now: number): number {
	const seen = useRef({events, at: now});
	if (seen.current.events !== events) seen.current = {events, at: now};
	return seen.current.at;
}
