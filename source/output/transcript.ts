import type {Activity, Model, Run} from '../model/state.js';
import {depthMemo, depthOf} from '../model/tree.js';
import {describeActivity} from '../text/describe-activity.js';
import {sanitizeLine} from '../text/sanitize.js';
import {activityJsonLine} from './activity-json.js';

export type TranscriptFormat = 'text' | 'json';

/**
 * Indentation stops growing here. Real delegation trees are a few levels deep; a malformed log can chain
 * 20,000 runs, and indenting each of its lines by its depth would print gigabytes of spaces.
 */
export const maxIndentDepth = 32;

/** One transcript line: `[coordinator] ⚡ exec npm test`, indented by delegation depth. */
export function transcriptLine(model: Model, activity: Activity, depthFor: (run: Run) => number = run => depthOf(model, run)): string {
	const run = model.runs.get(activity.runId);
	const depth = run ? depthFor(run) : 0;
	const line = describeActivity(activity);
	// A pipe reader greps for `delegate`; the arrow reads better than a handshake in plain text.
	const icon = activity.type === 'delegate' ? '→' : line.icon;
	const detail = line.detail === '' ? '' : ` ${line.detail}`;
	const error = line.error === undefined || activity.type === 'error' ? '' : ` ✗ ${line.error}`;
	const indent = depth > maxIndentDepth ? `${'  '.repeat(maxIndentDepth)}(depth ${depth}) ` : '  '.repeat(depth);
	return `${indent}[${sanitizeLine(activity.expertKey)}] ${icon} ${line.verb}${detail}${error}`;
}

/**
 * Writes activities in arrival order as they settle. An activity is held back until it settles (a tool
 * call until its result is in), and so is everything after it, so the order never changes.
 */
export class TranscriptWriter {
	#next = 0;
	readonly #model: Model;
	readonly #format: TranscriptFormat;
	readonly #write: (text: string) => void;
	readonly #include: (activity: Activity) => boolean;

	constructor(model: Model, format: TranscriptFormat, write: (text: string) => void, include: (activity: Activity) => boolean = () => true) {
		this.#model = model;
		this.#format = format;
		this.#write = write;
		this.#include = include;
	}

	flush(final: boolean): void {
		const {activities} = this.#model;
		const depthFor = depthMemo(this.#model);
		let out = '';
		while (this.#next < activities.length) {
			const activity = activities[this.#next]!;
			if (!activity.settled && !final) break;
			this.#next++;
			if (!this.#include(activity)) continue;
			out += (this.#format === 'json' ? activityJsonLine(activity) : transcriptLine(this.#model, activity, depthFor)) + '\n';
		}

		if (out !== '') this.#write(out);
	}
}
