import {spawnSync} from 'node:child_process';
import {serialize} from 'node:v8';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {createModel, isToolActivity, releasedActivity, type Model} from '../../model/state.js';
import {TextAccumulator} from '../../model/text-accumulator.js';
import {shapeLines, type Shape} from '../../../tools/shape-log.js';
import {fixtureFiles, root} from '../../../test/helpers/fixture-files.js';
import {expectSameSnapshot} from '../../../test/helpers/model-snapshot.js';
import {applyChanges} from '../../../test/helpers/apply-changes.js';
import {ChangeTracker} from './change-tracker.js';
import {Ingest} from '../ingest.js';
import {reducerIndexes, type ModelChanges} from './model-changes.js';

/*
 * The viewer's load worker posts what changed in its model (change-tracker.ts), and the viewer puts each post
 * into a model of its own (apply-changes.ts). Wherever the posts fall, the viewer's model must be the model a
 * plain Ingest of the same lines gives at that point, but for the reducer's own indexes, which stay in the
 * worker; and what did not change must not be posted again.
 */

let directory = '';
/** The generated logs, made once for the file: two tests post them, without and with letting go. */
const generated = new Map<string, string[]>();
const generatedLogs: Array<[string, string[], number]> = [
	['delegations', ['--seed', '11', '--jobs', '3', '--steps', '12', '--children', '3', '--deltas', '8', '--message-bytes', '200'], 40],
	['long runs', ['--seed', '12', '--jobs', '1', '--steps', '80', '--children', '0', '--deltas', '3', '--message-bytes', '60'], 150],
];

beforeAll(() => {
	directory = mkdtempSync(join(tmpdir(), 'perscope-model-changes-'));
	for (const [name, options] of generatedLogs) {
		const path = join(directory, `${name}.ndjson`);
		const made = spawnSync(process.execPath, ['build/tools/generate-log.js', ...options, '--out', path], {cwd: root, encoding: 'utf8'});
		expect(made.status, made.stderr).toBe(0);
		generated.set(name, linesOf(path));
	}
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

/** The changes as they arrive on the other side of a postMessage. */
function posted(changes: ModelChanges): ModelChanges {
	return structuredClone(changes);
}

/** A model as the viewer's model must be: the reducer's indexes are not posted (compared as modelSnapshot makes it). */
function viewed(model: Model): Model {
	const empty = createModel();
	const copy: Model = {...model};
	for (const key of reducerIndexes) Object.assign(copy, {[key]: empty[key]});
	// The worker's note of the step records it has to post (change-tracker.ts), not posted either.
	copy.stepChanges = undefined;
	return copy;
}

/**
 * Reduces the lines, posting the changes after each line in `postAfter` and at the end, and compares the viewer's
 * model each time. With `letGo`, the worker's model lets go what it posted after each post, as the load worker
 * does (serve-load.ts): the viewer's model is then compared with a plain model of the same lines.
 */
function expectSameModelWherePosted(
	lines: string[],
	postAfter: ReadonlySet<number>,
	name: string,
	{letGo = false} = {},
): {posts: number; released: number; worker: Model} {
	const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024});
	const plain = letGo ? new Ingest({maxLineBytes: 64 * 1024 * 1024}) : ingest;
	const tracker = new ChangeTracker();
	let viewer = createModel();
	let posts = 0;
	let released = 0;
	let offset = 0;
	const post = (at: number) => {
		const before = viewer;
		viewer = applyChanges(viewer, posted(tracker.changes(ingest.model)));
		posts++;
		// Asked of vitest only when it fails: this runs after every line of the short fixtures, and an expect() each time was a
		// tenth of the file's time (#35).
		if (viewer === before) expect(viewer, 'each post is a new model object').not.toBe(before);
		expectSameSnapshot(viewed(viewer), viewed(plain.model), () => `${name}, posted after line ${at}`);
		if (letGo) released += tracker.letGo(ingest.model);
	};

	for (const [index, text] of lines.entries()) {
		ingest.line({source: name, line: index + 1, offset, text});
		if (plain !== ingest) plain.line({source: name, line: index + 1, offset, text});
		offset += Buffer.byteLength(text) + 1;
		if (postAfter.has(index)) post(index + 1);
	}

	post(lines.length);
	return {posts, released, worker: ingest.model};
}

/** How many activities a model holds, those let go not counted. */
function heldActivities(model: Model): number {
	return model.activities.filter(activity => activity !== releasedActivity).length;
}

/** Where to post in a log of `count` lines: evenly spread, and at a few lines chosen by a seed. */
function cuts(count: number, seed: number, parts = 7): Set<number> {
	const at = new Set<number>();
	for (let part = 1; part < parts; part++) at.add(Math.floor((count * part) / parts));
	let state = seed;
	for (let pick = 0; pick < 5; pick++) {
		state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
		at.add(state % Math.max(1, count));
	}

	return at;
}

function linesOf(path: string): string[] {
	return readFileSync(path, 'utf8')
		.split('\n')
		.filter(line => line.length > 0);
}

describe('a model posted by its changes', () => {
	// Every fixture, each posted after every line when short: long on a busy machine, so a longer bound than the default.
	it('is the plain model wherever the posts fall, for every fixture (tool results, step ends, delegations, resumes)', {timeout: 120_000}, () => {
		for (const path of fixtureFiles()) {
			const lines = linesOf(path);
			const name = relative(root, path);
			expectSameModelWherePosted(lines, cuts(lines.length, lines.length), name);
			// After every line: each change on its own, however small.
			if (lines.length <= 400) expectSameModelWherePosted(lines, new Set(lines.keys()), `${name}, line by line`);
		}
	});

	it('is the plain model for the hostile shapes, whose lists are long enough to be posted by their ends', () => {
		const shapes: Array<[Shape, number]> = [
			['tools', 300],
			['wide', 300],
			['tree', 200],
			['chain', 150],
			['ring', 3],
		];
		for (const [shape, runs] of shapes) {
			const lines = [...shapeLines({shape, runs, seed: 3})];
			const {posts} = expectSameModelWherePosted(lines, cuts(lines.length, runs, 25), `${shape} of ${runs}`);
			expect(posts).toBeGreaterThan(3);
		}
	});

	it('is the plain model for generated logs: parallel delegations and streams, and long runs whose steps end after they were posted', () => {
		for (const [name, , parts] of generatedLogs) {
			const lines = generated.get(name)!;
			expectSameModelWherePosted(lines, cuts(lines.length, 5, parts), name);
		}
	});

	it('is the plain model when the worker lets go what it posted, for every fixture and generated log', {timeout: 120_000}, () => {
		for (const path of fixtureFiles()) {
			const lines = linesOf(path);
			const name = relative(root, path);
			expectSameModelWherePosted(lines, cuts(lines.length, lines.length), name, {letGo: true});
			if (lines.length <= 400) expectSameModelWherePosted(lines, new Set(lines.keys()), `${name}, line by line`, {letGo: true});
		}

		for (const [name, , parts] of generatedLogs) {
			const lines = generated.get(name)!;
			const {released} = expectSameModelWherePosted(lines, cuts(lines.length, 5, parts), name, {letGo: true});
			expect(released, `${name}: activities let go`).toBeGreaterThan(0);
		}
	});

	it('lets go the posted activities of closed runs and of steps two behind, keeping delegations: the hostile shapes', () => {
		// One run of 300 calls: once it has gone on, the worker holds the calls of its last steps only; closed, none.
		const tools = [...shapeLines({shape: 'tools', runs: 300, seed: 3})];
		const along = Math.floor(tools.length / 2);
		const during = expectSameModelWherePosted(tools.slice(0, along), cuts(along, 300, 25), 'tools, half', {letGo: true});
		expect(heldActivities(during.worker)).toBeLessThanOrEqual(3);
		expect(during.released).toBeGreaterThan(100);
		const whole = expectSameModelWherePosted(tools, cuts(tools.length, 300, 25), 'tools', {letGo: true});
		expect(whole.worker.activities.length).toBeGreaterThan(300);
		// The last post lets the last ones go: the run has completed.
		expect(heldActivities(whole.worker)).toBe(0);

		// 300 runs delegated by one: the worker keeps the delegations and nothing of the closed runs.
		const wide = [...shapeLines({shape: 'wide', runs: 300, seed: 3})];
		const {worker} = expectSameModelWherePosted(wide, cuts(wide.length, 300, 25), 'wide', {letGo: true});
		const kept = worker.activities.filter(activity => activity !== releasedActivity);
		expect(kept.every(activity => activity.type === 'delegate')).toBe(true);
		expect(kept.length).toBeLessThan(worker.activities.length / 2);
	});

	it('keeps a plain -i answer given to another call (misroutedAnswer), which the reducer adds to a call after it was made', () => {
		const lines = ['ask-1', 'ask-2-followup', 'ask-3-answer'].flatMap(name => linesOf(join(root, 'fixtures', 'real', `${name}.ndjson`)));
		for (const letGo of [false, true]) {
			const {worker} = expectSameModelWherePosted(lines, cuts(lines.length, 9), 'ask, answered', {letGo});
			expect(worker.activities.some(activity => 'misroutedAnswer' in activity)).toBe(true);
		}
	});

	it('posts only what changed, and the viewer keeps the runs and panes that did not', () => {
		const lines = [...shapeLines({shape: 'wide', runs: 200, seed: 1})];
		const ingest = new Ingest({maxLineBytes: 1024 * 1024});
		const tracker = new ChangeTracker();
		const half = Math.floor(lines.length / 2);
		for (const [index, text] of lines.slice(0, half).entries()) ingest.line({source: 'wide', line: index + 1, offset: 0, text});
		const first = applyChanges(createModel(), posted(tracker.changes(ingest.model)));
		expect(tracker.changed(ingest.model)).toBe(false);
		const nothing = tracker.changes(ingest.model);
		expect([nothing.activities.length, nothing.runs.length, nothing.panes.length, nothing.jobs.length, nothing.runtime.length]).toEqual([0, 0, 0, 0, 0]);

		const runsBefore = new Map(first.runs);
		const panesBefore = new Map(first.panes);
		for (const [index, text] of lines.slice(half).entries()) ingest.line({source: 'wide', line: half + index + 1, offset: 0, text});
		const changes = tracker.changes(ingest.model);
		const second = applyChanges(first, posted(changes));
		expect(second.rev).toBeGreaterThan(first.rev);
		const changedRuns = new Set(changes.runs.map(([runId]) => runId));
		let kept = 0;
		for (const [runId, run] of runsBefore) {
			if (changedRuns.has(runId)) expect(second.runs.get(runId)).not.toBe(run);
			else {
				expect(second.runs.get(runId)).toBe(run);
				kept++;
			}
		}

		expect(kept).toBeGreaterThan(0);
		const changedPanes = new Set(changes.panes.map(([paneId]) => paneId));
		for (const [paneId, pane] of panesBefore) if (!changedPanes.has(paneId)) expect(second.panes.get(paneId)).toBe(pane);
		// The coordinator's list of children is long: only its new end is posted.
		const coordinatorId = [...second.runs.values()].find(run => run.childRunIds.length >= 64)?.runId;
		const coordinator = changes.runs.find(([runId]) => runId === coordinatorId);
		expect(coordinator).toContainEqual({keep: expect.any(Number) as number, tail: expect.any(Array) as unknown[]});
	});

	it('posts runs, panes and activities without their field names: a wide job takes under half of what it took', () => {
		// What is posted and not yet taken waits on the port, encoded, in the viewer's process (docs/performance.md):
		// as objects, each with its fields' names, the posts of this log took ~1,630 bytes a run; as tuples ~670.
		const runs = 2000;
		const ingest = new Ingest({maxLineBytes: 1024 * 1024});
		const tracker = new ChangeTracker();
		let bytes = 0;
		for (const [index, text] of [...shapeLines({shape: 'wide', runs, seed: 1})].entries()) {
			ingest.line({source: '/tmp/perscope-bench/viewer-wide-2000.ndjson', line: index + 1, offset: 0, text});
			if (index % 500 === 499) bytes += serialize(tracker.changes(ingest.model)).length;
		}

		bytes += serialize(tracker.changes(ingest.model)).length;
		expect(bytes / runs).toBeLessThan(800);
	});

	it("shares the empty objects of calls' arguments (an exec call's env: {}) among all calls, equal to what each call had", () => {
		const ingest = new Ingest({maxLineBytes: 1024 * 1024});
		for (const [index, text] of [...shapeLines({shape: 'tools', runs: 50, seed: 1})].entries())
			ingest.line({source: 'tools', line: index + 1, offset: 0, text});
		const viewer = applyChanges(createModel(), posted(new ChangeTracker().changes(ingest.model)));
		const envs = viewer.activities.flatMap(activity =>
			isToolActivity(activity) && activity.toolName === 'exec' ? [(activity.args as {env: unknown}).env] : [],
		);
		expect(envs.length).toBeGreaterThan(10);
		expect(new Set(envs).size).toBe(1);
		expect(envs[0]).toEqual({});
		expectSameSnapshot(viewed(viewer), viewed(ingest.model), 'tools of 50');
	});

	it('regression: posts a step record the reducer changed long after it was posted, in a list posted by its end', () => {
		// The worker keeps no copy of the step records it posted: the reducer notes the first it changes
		// (Model.stepChanges). A late checkpoint of step 2 of a run of 100 steps changes its record in place.
		const lines = [...shapeLines({shape: 'tools', runs: 100, seed: 1})];
		const stepEnd = lines.find(line => line.includes('"type":"continueToNextStep"') && line.includes('"stepNumber":2,'));
		expect(stepEnd).toBeDefined();
		const late = stepEnd!
			.replace(/"id":"e-\d+"/, '"id":"e-late"')
			.replace(/"timestamp":\d+/, '"timestamp":1795500000000')
			.replaceAll('"cp-0-2"', '"cp-0-2-late"');
		const {worker} = expectSameModelWherePosted([...lines, late], new Set([lines.length - 1]), 'a late checkpoint of step 2');
		const record = [...worker.runs.values()][0]?.steps[1];
		expect([record?.step, record?.finishedAt, record?.checkpointId]).toEqual([2, 1_795_500_000_000, 'cp-0-2-late']);
	});

	it('is posted by one tracker: a second on the same model, which would miss the step records the first was told of, throws', () => {
		const ingest = new Ingest({maxLineBytes: 1024 * 1024});
		for (const [index, text] of [...shapeLines({shape: 'tools', runs: 5, seed: 1})].entries()) ingest.line({source: 'tools', line: index + 1, offset: 0, text});
		new ChangeTracker().changes(ingest.model);
		expect(() => new ChangeTracker().changes(ingest.model)).toThrow('one change tracker only');
	});

	it('keeps streamed text, cut or not, and goes on accumulating it as the original does', () => {
		const texts = [new TextAccumulator(), new TextAccumulator(40), new TextAccumulator(40), new TextAccumulator()];
		texts[0]!.append('Thinking about ');
		for (let i = 0; i < 10; i++) texts[1]!.append(`delta ${i}; `);
		for (let i = 0; i < 10; i++) texts[2]!.append(`delta ${i}; `);
		texts[2]!.complete('the whole reasoning');
		texts[3]!.started = true;
		for (const text of texts) {
			const copy = TextAccumulator.fromState(structuredClone(text.toState()));
			expect(copy.text).toBe(text.text);
			expect([copy.started, copy.isComplete, copy.isEmpty]).toEqual([text.started, text.isComplete, text.isEmpty]);
			for (const next of ['more, ', 'and more text past the cap of forty characters']) {
				copy.append(next);
				text.append(next);
			}

			expect(copy.text).toBe(text.text);
		}
	});
});
