import type {Activity, Model} from '../model/state.js';

/*
 * Which activities of a model changed in place since an earlier revision: what a live stream read on the viewer's
 * thread does to its model between two frames (new activities at the end, and a changed activity as a new object in
 * its slot: model/reduce/activities.ts never changes one in place). What is worked out from the activities
 * (a filter's matches, a search's) carries on from an earlier revision's by testing those slots again and the
 * new ones, instead of every activity. One tracker per activities array, shared by all that carry on: each kept
 * its own copy of the activities before (8 bytes an activity each) and walked it every frame.
 */

/** The activities as they were at one revision, to ask later what changed since (`changedSince`). */
export type ActivitiesMark = {
	readonly tracker: Tracker;
	/** The tracker's generation when the mark was made: a slot changed later has a higher one. */
	readonly generation: number;
	/** How many activities there were. */
	readonly length: number;
};

/** Slots by generation, not one list per revision: what the tracker keeps does not grow with time. */
type Tracker = {
	/** The model revision it last looked at. */
	rev: number;
	/** The activity objects as of `rev`; undefined while the array was seen at one revision only. */
	seen: Activity[] | undefined;
	/** By slot: the generation in which its activity last changed or was added. */
	changedAt: Int32Array;
	/** Moves each time the tracker looks at a later revision. */
	generation: number;
	/**
	 * The slots that changed in the last generation (below the length before it, ascending): what a mark of the
	 * generation before asks for, as each frame's carry does, told without reading every slot's generation.
	 */
	lastChanged: number[];
};

/** By the activities array: a shallow copy of the model (a load in a worker moving its event count) shares it. */
// eslint-disable-next-line no-restricted-syntax -- a side table of the model's own derived data, keyed by its activities array and dying with it: model/ may not hold query/'s types (docs/architecture.md)
const trackers = new WeakMap<Model['activities'], Tracker>();

/**
 * A mark of the model's activities as they are now. Undefined for an array seen at one revision only: a load in a
 * worker posts a new array each time, which never changes in place, and copying its activities would be wasted;
 * the second revision of the same array starts the tracking.
 */
export function markActivities(model: Model): ActivitiesMark | undefined {
	const tracker = trackerOf(model);
	if (!tracker.seen) return undefined;
	return {tracker, generation: tracker.generation, length: tracker.seen.length};
}

/**
 * The slots below the mark's length whose activity is another object than when the mark was made, ascending; the
 * slots from the mark's length on are new. Undefined when the mark is not of this array's tracker (another
 * array, or the array shrank and its tracking started over).
 */
export function changedSince(model: Model, mark: ActivitiesMark): number[] | undefined {
	const tracker = trackerOf(model);
	if (tracker !== mark.tracker || !tracker.seen) return undefined;
	if (mark.generation === tracker.generation) return [];
	if (mark.generation === tracker.generation - 1) return tracker.lastChanged.slice();
	const {changedAt} = tracker;
	const changed: number[] = [];
	for (let index = 0; index < mark.length; index++) if (changedAt[index]! > mark.generation) changed.push(index);
	return changed;
}

/** The array's tracker, brought up to the model's revision. */
function trackerOf(model: Model): Tracker {
	const {activities} = model;
	let tracker = trackers.get(activities);
	if (tracker?.rev === model.rev) return tracker;
	if (!tracker || (tracker.seen && tracker.seen.length > activities.length)) {
		tracker = {rev: model.rev, seen: undefined, changedAt: new Int32Array(0), generation: 0, lastChanged: []};
		trackers.set(activities, tracker);
		return tracker;
	}

	tracker.rev = model.rev;
	const {seen} = tracker;
	if (!seen) {
		tracker.seen = activities.slice();
		tracker.changedAt = new Int32Array(activities.length);
		return tracker;
	}

	const generation = ++tracker.generation;
	let {changedAt} = tracker;
	if (changedAt.length < activities.length) {
		changedAt = new Int32Array(Math.max(activities.length, changedAt.length * 2));
		changedAt.set(tracker.changedAt);
		tracker.changedAt = changedAt;
	}

	const known = seen.length;
	const lastChanged: number[] = [];
	for (let index = 0; index < known; index++) {
		const activity = activities[index]!;
		if (activity === seen[index]) continue;
		seen[index] = activity;
		changedAt[index] = generation;
		lastChanged.push(index);
	}

	tracker.lastChanged = lastChanged;

	for (let index = known; index < activities.length; index++) {
		seen.push(activities[index]!);
		changedAt[index] = generation;
	}

	return tracker;
}
