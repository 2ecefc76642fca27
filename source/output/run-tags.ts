import type {Activity, Model, Run} from '../model/state.js';
import {shownStatus} from '../query/tree.js';
import {sanitizeLine} from '../text/sanitize.js';

/*
 * `--print` names a line's run by its expert, `[writer]`. When two runs of one expert run at once in one job (two
 * delegations to `writer` in one step), that does not say whose line it is: from then on each of them is named
 * with a short run id as well, `[writer·3f9a]`, the shortest start of its pane's run id (the id of the pane's first
 * run, which names the whole pane, as `run:` does) that no other run of that expert in the job shares, at least 4
 * characters. A tag, once given, stays for the rest of the run, so a reader can grep it. Runs that never overlap
 * keep the plain `[writer]`.
 *
 * Two runs overlap when one starts (its first line) while the other has not ended: it is running, or waiting for
 * its own delegates. Delegations made together start their runs one after the other, a few events apart: a run's
 * lines wait (at most `siblingWaitEvents` events) while delegations to its expert in its job have not started
 * theirs, so that the first of them is tagged from its first line, knowing the ids of the others.
 *
 * A log of 200,000 runs of as many experts passes through here: an expert with one run so far costs a map entry
 * holding its pane id, and only an expert with several runs gets a record.
 */

/** Tags are at least this long. */
const minTag = 4;
/** A new run's lines wait at most this many events for the runs of delegations to its expert made with it. */
const siblingWaitEvents = 200;
/** Past this many runs of one expert in one job, a tag is the whole run id: no prefix is worked out against all. */
const maxCompared = 4096;

/** The runs of one expert in one job, once it has had more than one. */
type Group = {
	/** Its panes, in the order they came: what a tag must not be the start of. */
	readonly paneIds: string[];
	/** Its panes not ended, as of the last time a pane came. */
	open: string[];
};

/** Panes whose lines wait for delegations to their expert made with them to start their runs. */
type Arriving = {jobId: string; expertKey: string; paneIds: string[]; since: number};

export class RunTags {
	readonly #model: Model;
	/** Activities looked at so far. */
	#scanned = 0;
	readonly #seen = new Set<string>();
	/** By job, then expert key: the one pane of an expert so far, or its record. */
	readonly #groups = new Map<string, Map<string, string | Group>>();
	/** By job, then expert key: delegate activities (indices) not known to have started their run. */
	readonly #pending = new Map<string, Map<string, number[]>>();
	readonly #arriving: Arriving[] = [];
	/** Panes whose lines wait (`#arriving`). */
	readonly #waiting = new Set<string>();
	/** Tags given, by pane id. */
	readonly #tags = new Map<string, string>();

	constructor(model: Model) {
		this.#model = model;
	}

	/**
	 * After each event, before lines are written: the panes that appeared, and the tags they call for. `changed`:
	 * the activities changed by the event (`Model.changes`), where a tool call becomes a delegation.
	 */
	update(changed: readonly number[] = []): void {
		const model = this.#model;
		const {activities} = model;
		for (const index of changed) if (index < this.#scanned) this.#delegation(index);
		for (; this.#scanned < activities.length; this.#scanned++) {
			const activity = activities[this.#scanned];
			const run = activity ? model.runs.get(activity.runId) : undefined;
			if (!activity || !run) continue;
			if (activity.type === 'delegate') this.#delegation(this.#scanned);
			if (this.#seen.has(run.paneId)) continue;
			this.#seen.add(run.paneId);
			const first = model.runs.get(run.paneId) ?? run;
			this.#arrive(first.jobId, first.expertKey, run.paneId);
		}

		for (let i = this.#arriving.length - 1; i >= 0; i--) {
			const arriving = this.#arriving[i]!;
			if (this.#delegationsPending(arriving.jobId, arriving.expertKey) && model.events - arriving.since < siblingWaitEvents) continue;
			this.#arriving.splice(i, 1);
			this.#place(arriving.jobId, arriving.expertKey, arriving.paneIds);
		}
	}

	/** The input ended: every pane still waiting takes its place. */
	flush(): void {
		for (const arriving of this.#arriving.splice(0)) this.#place(arriving.jobId, arriving.expertKey, arriving.paneIds);
	}

	/** Whether the activity's line must wait: its run's tag is not decided yet. */
	holds(activity: Activity): boolean {
		if (this.#waiting.size === 0) return false;
		const run = this.#model.runs.get(activity.runId);
		return run !== undefined && this.#waiting.has(run.paneId);
	}

	/** How a line names the run: its expert, with its tag when it has one; made safe for a terminal. */
	label(run: Run | undefined, expertKey: string): string {
		const tag = run ? this.#tags.get(run.paneId) : undefined;
		return tag === undefined ? sanitizeLine(expertKey) : `${sanitizeLine(expertKey)}·${sanitizeLine(tag)}`;
	}

	/** A new pane: it takes its place now, or waits with the others of its expert for delegations made with it. */
	#arrive(jobId: string, expertKey: string, paneId: string): void {
		const waiting = this.#arriving.find(arriving => arriving.jobId === jobId && arriving.expertKey === expertKey);
		if (waiting) waiting.paneIds.push(paneId);
		else if (this.#delegationsPending(jobId, expertKey)) this.#arriving.push({jobId, expertKey, paneIds: [paneId], since: this.#model.events});
		else {
			this.#place(jobId, expertKey, [paneId]);
			return;
		}

		this.#waiting.add(paneId);
	}

	/** A delegation not yet known: its expert's runs in its job wait for its run to start (`#delegationsPending`). */
	#delegation(index: number): void {
		const activity = this.#model.activities[index];
		if (activity?.type !== 'delegate' || activity.childRunIds.length > 0) return;
		const run = this.#model.runs.get(activity.runId);
		if (!run) return;
		let byExpert = this.#pending.get(run.jobId);
		if (!byExpert) this.#pending.set(run.jobId, (byExpert = new Map()));
		const pending = byExpert.get(activity.delegateExpertKey);
		if (!pending) byExpert.set(activity.delegateExpertKey, [index]);
		else if (!pending.includes(index)) pending.push(index);
	}

	/** Whether a delegation to the expert in the job has not started its run yet (its siblings' lines wait for it). */
	#delegationsPending(jobId: string, expertKey: string): boolean {
		const byExpert = this.#pending.get(jobId);
		const pending = byExpert?.get(expertKey);
		if (!byExpert || !pending) return false;
		const {activities} = this.#model;
		const left = pending.filter(index => {
			const activity = activities[index];
			return activity?.type === 'delegate' && activity.childRunIds.length === 0;
		});
		if (left.length === 0) byExpert.delete(expertKey);
		else byExpert.set(expertKey, left);
		return left.length > 0;
	}

	/** Panes take their place among their expert's in the job: when they and the open ones are more than one, every one of them is tagged. */
	#place(jobId: string, expertKey: string, paneIds: readonly string[]): void {
		for (const paneId of paneIds) this.#waiting.delete(paneId);
		let byExpert = this.#groups.get(jobId);
		if (!byExpert) this.#groups.set(jobId, (byExpert = new Map()));
		const known = byExpert.get(expertKey);
		if (known === undefined && paneIds.length === 1) {
			byExpert.set(expertKey, paneIds[0]!);
			return;
		}

		const group: Group = known === undefined ? {paneIds: [], open: []} : typeof known === 'string' ? {paneIds: [known], open: [known]} : known;
		byExpert.set(expertKey, group);
		const model = this.#model;
		group.open = group.open.filter(paneId => {
			const pane = model.panes.get(paneId);
			const last = pane ? model.runs.get(pane.runIds.at(-1) ?? '') : undefined;
			return last !== undefined && goingOn(last);
		});
		for (const paneId of paneIds) {
			group.paneIds.push(paneId);
			group.open.push(paneId);
		}

		if (group.open.length < 2) return;
		for (const paneId of group.open) if (!this.#tags.has(paneId)) this.#tags.set(paneId, shortestStart(paneId, group.paneIds));
	}
}

/** A run that has not ended: running, or waiting for its delegates (a person's answer comes in another process). */
function goingOn(run: Run): boolean {
	const status = shownStatus(run);
	return status === 'init' || status === 'proceeding' || status === 'stoppedByDelegate';
}

/** The shortest start of `id`, at least `minTag` long, that none of `others` starts with; the whole id when none is. */
export function shortestStart(id: string, others: readonly string[]): string {
	if (others.length > maxCompared) return id;
	let shared = 0;
	for (const other of others) {
		if (other === id) continue;
		let length = 0;
		while (length < id.length && length < other.length && id.charCodeAt(length) === other.charCodeAt(length)) length++;
		if (length > shared) shared = length;
	}

	return id.slice(0, Math.max(minTag, shared + 1));
}
