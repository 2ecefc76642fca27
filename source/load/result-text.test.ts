import {mkdtempSync, rmSync, truncateSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {fileInput, type InputPlan} from '../input/inputs.js';
import {RawEvents} from '../input/reread/raw-events.js';
import {isToolActivity, type Model, type ToolActivity} from '../model/state.js';
import {shapeLines} from '../../tools/shape-log.js';
import {loadHere} from './load-here.js';
import {withWholeResult} from './result-text.js';

/*
 * The viewer's model keeps the first 256 characters of each tool result (Model.textKeep, past its whole budget); the inspector reads
 * the rest again from the file by offset. A tools log of many calls stands in for #22's 500,000 (the bench loads
 * that one): what matters is a result far into the file, past what any buffer would hold. 5,000 calls make ~10 MB,
 * ten of the 1 MB reads of a load and far past RawEvents' 64 KB reads: offsets counted within each 1 MB read
 * instead of the file fail the first test. (It had 20,000 calls, 40 MB: ~2 s more CPU.)
 */

const calls = 5_000;
const limit = 256;
let directory = '';
let path = '';
let text = '';
/** Made once, while the file is there: the plan says what it was. */
let planned: InputPlan;

beforeAll(() => {
	directory = mkdtempSync(join(tmpdir(), 'perscope-result-text-'));
	path = join(directory, 'tools.ndjson');
	text = [...shapeLines({shape: 'tools', runs: calls, seed: 5})].join('\n') + '\n';
	writeFileSync(path, text);
	planned = {inputs: [fileInput(path)], label: path, demo: false, follow: false, jobsRoot: undefined};
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

async function load(limit: number | undefined): Promise<Model> {
	const loading = loadHere(planned, {maxLineBytes: 64 * 1024 * 1024, textKeep: limit === undefined ? undefined : {limit, wholeBudget: 0}});
	await loading.done;
	return loading.model;
}

/** The load with results cut to `limit`, made once: the tests read it and change nothing in it. */
let keptLoad: Promise<Model> | undefined;
function keptModel(): Promise<Model> {
	keptLoad ??= load(limit);
	return keptLoad;
}

function reader(): RawEvents {
	const raw = new RawEvents();
	raw.addPlan(planned);
	return raw;
}

function lastCut(model: Model): ToolActivity {
	const cut = model.activities.filter(isToolActivity).filter(activity => activity.result?.fullLength !== undefined);
	const last = cut.at(-1);
	if (!last) throw new Error('no result was cut');
	return last;
}

describe('tool results re-read by offset (#22)', () => {
	it('the inspector of an activity of a large tools log shows the whole result, read again from the file', async () => {
		const [whole, kept] = [await load(undefined), await keptModel()];
		const activity = lastCut(kept);
		expect(activity.seq).toBeGreaterThan(calls * 0.9);
		expect(activity.result?.text).toHaveLength(limit);
		const expected = whole.activities[activity.seq];
		const raw = reader();
		const shown = withWholeResult(activity, ref => raw.read(ref));
		expect(isToolActivity(shown) && shown.result?.text).toBe(expected && isToolActivity(expected) ? expected.result?.text : undefined);
		expect(isToolActivity(shown) && shown.result?.fullLength).toBeUndefined();
	});

	it('says so, without failing, when the file was truncated or rewritten since it was read', async () => {
		const activity = lastCut(await keptModel());
		const ref = activity.result!.ref;
		// Another line now stands where the result was.
		writeFileSync(path, text.slice(0, ref.offset) + text.slice(ref.offset).replace(/^[^\n]*/, '{"type":"startGeneration"}'));
		const rewritten = withWholeResult(activity, ref => reader().read(ref));
		expect(isToolActivity(rewritten) && rewritten.result?.text).toMatch(/^.{256}\n… \(\d+ more characters not shown: the input changed since it was read/s);
		truncateSync(path, ref.offset - 1);
		const truncated = withWholeResult(activity, ref => reader().read(ref));
		expect(isToolActivity(truncated) && truncated.result?.text).toContain('more characters not shown');
		rmSync(path);
		const removed = withWholeResult(activity, ref => reader().read(ref));
		expect(isToolActivity(removed) && removed.result?.text).toContain('can no longer be read');
		writeFileSync(path, text);
	});
});
