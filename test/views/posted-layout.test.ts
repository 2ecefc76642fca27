import {readFileSync} from 'node:fs';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {applyChangesInParts} from '../../source/load/viewer/apply-changes.js';
import {ChangeTracker} from '../../source/load/viewer/change-tracker.js';
import {HeldPosts} from '../../source/load/viewer/held-posts.js';
import {Ingest} from '../../source/load/ingest.js';
import type {ModelChanges} from '../../source/load/viewer/model-changes.js';
import {createModel, type Model} from '../../source/model/state.js';
import {shapeLines} from '../../tools/shape-log.js';
import {Layouts} from '../../source/view-model/tree/layouts.js';
import type {Task} from '../../source/slices/scheduler.js';
import {initialUiState, type UiState} from '../../source/view-model/ui-state.js';
import {expectEqual} from '../helpers/expect-same.js';
import {flattenRows} from '../helpers/flatten-rows.js';
import {fixturePath, modelFromText} from '../helpers/load.js';
import {manualScheduler} from '../helpers/manual-scheduler.js';

/*
 * A load in a worker posts what changed in its model, and the viewer puts each post into its own model in place
 * (load/apply-changes.ts). The tree lays a large posted model out in slices while the last layout made stays on
 * screen; the posts that come meanwhile wait (load/held-posts.ts) so that no layout reads a model that changed
 * between two of its slices. Keys (calls for rows) come between any two slices.
 */

const fixtures = ['demo.ndjson', 'nested-delegate.ndjson', 'parallel-delegate.ndjson', 'continue-followup.ndjson', 'delegate-failure.ndjson'];
// A layout works in steps of 1,024 panes or activities between its slices: shapes of 1,100 to 2,500 runs are
// laid out in two or more. With posts let in while a layout is in slices (HeldPosts not waiting for the reading
// turn), 12 runs of these fail for each of 40 seeds tried, at the 6th run at the latest; 15 runs of 1,500 to 4,000
// found it no sooner and cost ~1.5 s more. A layout that took no read turn (`reads` dropped in tree/layouts.ts) fails
// it too: a layout counts as in slices from its task's first slice, not from the turn it holds.
const logs = fc.oneof(
	fc.constantFrom(...fixtures).map(name =>
		readFileSync(fixturePath(name), 'utf8')
			.split('\n')
			.filter(line => line !== ''),
	),
	fc
		.record({
			shape: fc.constantFrom('wide' as const, 'tree' as const, 'chain' as const),
			runs: fc.integer({min: 1100, max: 2500}),
			seed: fc.integer({min: 1, max: 100}),
		})
		.map(options => [...shapeLines(options)]),
);

/** What a frame shows: the rows of every pane unfolded, so that each activity is a row. */
const ui: UiState = {...initialUiState, defaultCollapse: 'expanded', follow: false};

type Step = {kind: 'read'; share: number} | {kind: 'turns'; count: number} | {kind: 'frame'};
const step: fc.Arbitrary<Step> = fc.oneof(
	fc.record({kind: fc.constant('read' as const), share: fc.double({min: 0.001, max: 0.3, noNaN: true})}),
	fc.record({kind: fc.constant('turns' as const), count: fc.integer({min: 1, max: 4})}),
	fc.constant({kind: 'frame' as const}),
);

describe('a posted model laid out in slices', () => {
	it('regression: posts put in while the tree was laid out in slices: no layout reads a model changed under it, and each one made shows a model the load had', () => {
		fc.assert(
			fc.property(logs, fc.array(step, {minLength: 5, maxLength: 60}), (lines, steps) => {
				// The worker's side: its own model, posting what changed after each read.
				const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024});
				const splitter = ingest.splitter('test');
				const tracker = new ChangeTracker();
				let read = 0;

				// The viewer's side: its model, the lines it holds, and its one scheduler, stepped by hand: the layout's
				// slices and the posts' turns (and the retries of each while the other goes on) wait in one queue.
				let viewer: Model = createModel();
				let linesIn = 0;
				let putInDuringSlices = 0;
				// Each look at the clock is past a slice's time: each slice of a layout does its least (one step), and
				// each part of a post is a turn of its own.
				const scheduler = manualScheduler({tick: 100});
				const turns = scheduler.pending;
				// A layout is in slices from its first slice until it is over, told from its task rather than from the read
				// turn it is meant to take: a layout that no longer took it would let posts in unseen.
				const tasks: Array<{task: Task; begun: () => boolean}> = [];
				const run = scheduler.run.bind(scheduler);
				scheduler.run = (slice, options) => {
					let begun = false;
					const task = run((until, state) => {
						begun = true;
						return slice(until, state);
					}, options);
					tasks.push({task, begun: () => begun});
					return task;
				};
				const layoutInSlices = () => tasks.some(each => each.begun() && !each.task.over);
				const posts = new HeldPosts<{changes: ModelChanges; lines: number}>({
					scheduler,
					*inParts({changes, lines: count}) {
						const parts = applyChangesInParts(viewer, structuredClone(changes));
						for (;;) {
							if (layoutInSlices()) putInDuringSlices++;
							const part = parts.next();
							if (part.done) {
								viewer = part.value;
								break;
							}

							yield;
						}

						linesIn = count;
					},
				});

				// The lines the viewer held when the last layout made in slices was done (nothing goes in while it is made).
				let finishedWith: number | undefined;
				const made: Array<{rows: unknown[]; lines: number}> = [];
				const rowsFor = new Layouts(scheduler).rowsCache(undefined, {
					onReady() {
						// Shown from now on; compared when nothing went in since it was made.
						if (finishedWith !== linesIn) return;
						const list = rowsFor(viewer, ui, 100);
						made.push({rows: list.slice(0, list.length), lines: linesIn});
					},
					minPanes: 0,
				});

				rowsFor(viewer, ui, 100);
				for (const each of steps) {
					switch (each.kind) {
						case 'read': {
							const next = Math.min(lines.length, read + Math.ceil(each.share * lines.length));
							for (const line of lines.slice(read, next)) splitter.push(Buffer.from(line + '\n'));
							read = next;
							posts.offer({changes: tracker.changes(ingest.model), lines: read});
							break;
						}

						case 'turns':
							for (let done = 0; done < each.count && turns.length > 0; done++) {
								const slicing = layoutInSlices();
								turns.shift()!();
								if (slicing && !layoutInSlices()) finishedWith = linesIn;
							}

							break;
						case 'frame':
							rowsFor(viewer, ui, 100);
							break;
					}
				}

				// The rest of the load, and the frames until the tree has caught up: the whole log, as one layout shows it.
				for (const line of lines.slice(read)) splitter.push(Buffer.from(line + '\n'));
				posts.offer({changes: tracker.changes(ingest.model), lines: lines.length});
				rowsFor(viewer, ui, 100);
				// A chain is laid out a pane a slice when each slice does its least.
				for (let round = 0; round < 100_000 && turns.length > 0; round++) {
					const slicing = layoutInSlices();
					turns.shift()!();
					if (slicing && !layoutInSlices()) finishedWith = linesIn;
					rowsFor(viewer, ui, 100);
				}

				const last = rowsFor(viewer, ui, 100);
				expect(linesIn).toBe(lines.length);
				// The rows of a fresh load of the first `count` lines, each made once: the last layout made in slices has
				// mostly the whole log, as the last frame has.
				const expected = new Map<number, unknown[]>();
				const rowsOfLoad = (count: number) => {
					let rows = expected.get(count);
					if (rows === undefined) {
						rows = flattenRows(modelFromText(lines.slice(0, count).join('\n') + '\n'), ui, 100);
						expected.set(count, rows);
					}

					return rows;
				};

				expectEqual(last.slice(0, last.length), rowsOfLoad(lines.length));
				expect(putInDuringSlices).toBe(0);
				for (const {rows, lines: count} of made) expectEqual(rows, rowsOfLoad(count));
			}),
			{numRuns: 12},
		);
	});
});
