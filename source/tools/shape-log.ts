/*
 * Logs of hostile shapes (issue #22): the tree a real fleet or a malformed log can make, with as little else
 * as possible, so that tests and the bench load them in seconds. Each run is a `startRun` whose query names
 * the run, and whose `initialCheckpoint.delegatedBy` names its parent:
 *
 * - `chain`: run i is delegated by run i-1, N deep.
 * - `ring`: N runs (at least 2) each delegated by the next, the last by the first: a delegation cycle.
 * - `wide`: one coordinator that delegates to N-1 children.
 * - `tree`: a coordinator, then runs that each pick a random earlier run as their parent (seeded).
 *
 * Every run but the ring's completes, so a finished child collapses in the viewer as a real one does.
 */

export const shapes = ['chain', 'ring', 'wide', 'tree'] as const;
export type Shape = (typeof shapes)[number];

export function isShape(value: string): value is Shape {
	return (shapes as readonly string[]).includes(value);
}

export type ShapeOptions = {shape: Shape; runs: number; seed: number};

/** The parent of run `index` (0-based), or undefined for a root. */
function parentOf(shape: Shape, index: number, runs: number, random: () => number): number | undefined {
	switch (shape) {
		case 'chain': {
			return index === 0 ? undefined : index - 1;
		}

		case 'ring': {
			return (index + 1) % runs;
		}

		case 'wide': {
			return index === 0 ? undefined : 0;
		}

		case 'tree': {
			return index === 0 ? undefined : Math.floor(random() * index);
		}

		default: {
			return assertNever(shape);
		}
	}
}

function assertNever(value: never): never {
	throw new Error(`unknown shape ${String(value)}`);
}

export function runIdOf(index: number): string {
	return `run-${index}`;
}

export function expertOf(index: number): string {
	return `expert-${index}`;
}

/** The log's lines, one run at a time, so that a million runs need no more memory than one. */
export function* shapeLines({shape, runs, seed}: ShapeOptions): Generator<string> {
	let state = seed >>> 0;
	const random = () => {
		// mulberry32, as generate-log.ts: seeded and repeatable.
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};

	const count = shape === 'ring' ? Math.max(2, runs) : Math.max(1, runs);
	const jobId = `job-${shape}`;
	let sequence = 0;
	const time = () => 1_795_400_000_000 + sequence * 10;
	for (let index = 0; index < count; index++) {
		const runId = runIdOf(index);
		const expertKey = expertOf(index);
		const parent = parentOf(shape, index, count, random);
		const delegatedBy = parent === undefined ? undefined : {runId: runIdOf(parent), expert: {key: expertOf(parent)}, toolCallId: `call-${index}`};
		sequence++;
		yield JSON.stringify({
			type: 'startRun',
			id: `e-${sequence}`,
			timestamp: time(),
			jobId,
			runId,
			expertKey,
			stepNumber: 1,
			initialCheckpoint: {id: `cp-${index}`, runId, status: 'init', stepNumber: 1, expert: {key: expertKey}, ...(delegatedBy ? {delegatedBy} : {})},
			inputMessages: [{type: 'userMessage', contents: [{type: 'textPart', text: `query of ${runId}`}]}],
		});
		if (shape === 'ring') continue;
		sequence++;
		yield JSON.stringify({
			type: 'completeRun',
			id: `e-${sequence}`,
			timestamp: time(),
			jobId,
			runId,
			expertKey,
			stepNumber: 1,
			checkpoint: {id: `cp-${index}-done`, runId, status: 'completed', stepNumber: 1, expert: {key: expertKey}},
			text: `done ${runId}`,
		});
	}
}
