import {spawn} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {gzipSync} from 'node:zlib';
import fc from 'fast-check';
import {afterAll, describe, expect, it} from 'vitest';
import {cliPath, repoRoot} from '../helpers/cli-process.js';
import {agentCliFixtures, eventLogFixtures} from '../helpers/fixture-files.js';
import {perscopeInProcess, type Output} from '../helpers/cli-in-process.js';

/*
 * The headless outputs of every fixture, as the CLI writes them, checked two ways per mode (one test file per
 * mode, so that the four run side by side):
 * - golden files: a change in output shows up as a diff to review; `UPDATE_GOLDEN=1` rewrites them after a
 *   deliberate change, and writes those of a new fixture. A fixture without its golden files fails: a golden
 *   written by the run that checks it would prove nothing.
 * - #21.4, the same bytes give the same output: every fixture is read once as a file (the reference) and once
 *   more in a way chosen at random: a pipe that delivers it in random small pieces, several files cut at random
 *   line boundaries, a .gz file, or a .gz on a pipe. stdout and stderr must be byte-identical.
 *   PERSCOPE_PROPERTY_RUNS raises the number of random ways per case.
 * The reference read of a fixture is the one its golden file is checked against: one run of the CLI serves both.
 * These runs are of the CLI in this process (perscopeInProcess: the same code from the arguments on, hundreds of
 * runs without a Node start each); a few runs of the built CLI as a real process, reading a real pipe, are held
 * to the same output, so that what the user runs is checked end to end.
 */

export const goldenDir = join(repoRoot, 'test/golden');

export type Mode = {name: string; args: readonly string[]; golden?: {name: string; extension: string}};

export const modes = {
	print: {name: '--print', args: ['--print'], golden: {name: 'print', extension: 'txt'}},
	json: {name: '--json', args: ['--json'], golden: {name: 'json', extension: 'ndjson'}},
	summary: {name: '--summary', args: ['--summary']},
	summaryJson: {name: '--summary --json', args: ['--summary', '--json'], golden: {name: 'summary', extension: 'json'}},
} as const satisfies Record<string, Mode>;

/** Every fixture with golden files. */
export const goldenFixtures = (): string[] => [...eventLogFixtures(), ...agentCliFixtures()];

/** The golden file of `fixture` (a path under fixtures/) in `golden`'s mode. */
export function goldenPath(fixture: string, golden: NonNullable<Mode['golden']>): string {
	return join(goldenDir, `${fixture.replaceAll('/', '-').replace(/\.(nd)?jsonl?$/, '')}.${golden.name}.${golden.extension}`);
}

type Case = {name: string; files: string[]};

function sameBytesCases(): Case[] {
	// The one stream with a bad line names its source in --summary --json's diagnostics: a file's is not a pipe's.
	const agentClis = agentCliFixtures().filter(name => !name.includes('paperclip-3504'));
	const single = [...eventLogFixtures(), ...agentClis].map(name => ({name, files: [`fixtures/${name}`]}));
	// One job in two files, as `--continue-job` writes it: the second holds the answer to the first's question.
	const continued = {
		name: 'real/interactive-1 + interactive-2-continue',
		files: ['interactive-1.ndjson', 'interactive-2-continue.ndjson'].map(name => `fixtures/real/${name}`),
	};
	const branches = {
		name: 'branches/ (run, --continue-job, --resume-from)',
		files: ['1-run.ndjson', '2-continue-job.ndjson', '3-resume-from.ndjson'].map(name => `fixtures/branches/${name}`),
	};
	// The released CLI's follow-up: the second file continues the first's run id.
	const followUp = {
		name: 'released/followup-1 + followup-2-continue',
		files: ['followup-1.ndjson', 'followup-2-continue.ndjson'].map(name => `fixtures/released/${name}`),
	};
	// A Claude Code session's transcript, then its sub-agents' (each a sub-agent of a call in the file before it).
	const transcript = 'claude-code/session-transcript-cc2.1.197';
	const session = {
		name: `${transcript} + its sub-agents`,
		files: [`${transcript}.ndjson`, ...['agent-a8d324eb581d3a1e0', 'agent-a9fb83d788ae2790b'].map(name => `${transcript}/subagents/${name}.ndjson`)].map(
			name => `fixtures/${name}`,
		),
	};
	return [...single, continued, branches, followUp, session];
}

/** Runs of the CLI at once in one test file: the machine has two cores and the other test files want them too. */
const runsAtOnce = 2;
let running = 0;
const waiting: Array<() => void> = [];

async function turn<T>(work: () => Promise<T>): Promise<T> {
	if (running >= runsAtOnce) await new Promise<void>(resolve => waiting.push(resolve));
	running++;
	try {
		return await work();
	} finally {
		running--;
		waiting.shift()?.();
	}
}

/** Runs the built CLI as a process from the repository's root, as CI does; `pieces`, when given, are written to its stdin one after another with a pause between. */
export async function perscope(args: readonly string[], pieces?: Buffer[]): Promise<Output> {
	return turn(async () => {
		const child = spawn(process.execPath, [cliPath, ...args], {
			cwd: repoRoot,
			stdio: [pieces ? 'pipe' : 'ignore', 'pipe', 'pipe'],
			env: {...process.env, CI: 'true'},
		});
		let stdout = '';
		let stderr = '';
		child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
		child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
		const closed = new Promise<number | null>((resolve, reject) => {
			child.once('error', reject);
			child.once('close', code => resolve(code));
		});
		if (pieces && child.stdin) {
			for (const piece of pieces) {
				if (!child.stdin.write(piece)) await new Promise(resolve => child.stdin!.once('drain', resolve));
				// A pause lets the reader take this piece on its own instead of joined with the next.
				await new Promise(resolve => setImmediate(resolve));
			}

			child.stdin.end();
		}

		const code = await closed;
		return {stdout, stderr, code};
	});
}

/** Cuts bytes into pieces at the given fractions of their length. */
function cut(bytes: Buffer, cuts: number[]): Buffer[] {
	const at = [...new Set(cuts.map(fraction => Math.floor(fraction * bytes.length)))].filter(i => i > 0 && i < bytes.length).sort((a, b) => a - b);
	const pieces: Buffer[] = [];
	let from = 0;
	for (const i of at) {
		pieces.push(bytes.subarray(from, i));
		from = i;
	}

	pieces.push(bytes.subarray(from));
	return pieces;
}

/** Small pieces of random sizes (1 to `max` bytes), from a seed. */
export function trickle(bytes: Buffer, seed: number, max: number): Buffer[] {
	const pieces: Buffer[] = [];
	let state = seed >>> 0 || 1;
	for (let from = 0; from < bytes.length; ) {
		state = (Math.imul(state, 1103515245) + 12345) >>> 0;
		const size = 1 + (state % max);
		pieces.push(bytes.subarray(from, from + size));
		from += size;
	}

	return pieces;
}

type Way =
	| {kind: 'pipe in pieces'; seed: number; max: number}
	| {kind: 'several files'; cuts: number[]}
	| {kind: 'gzip file'}
	| {kind: 'gzip on a pipe'; cuts: number[]};

const way: fc.Arbitrary<Way> = fc.oneof(
	fc.record({kind: fc.constant('pipe in pieces' as const), seed: fc.nat(), max: fc.constantFrom(1, 7, 64, 4096)}),
	fc.record({kind: fc.constant('several files' as const), cuts: fc.array(fc.double({min: 0, max: 1, noNaN: true}), {minLength: 1, maxLength: 4})}),
	fc.record({kind: fc.constant('gzip file' as const)}),
	fc.record({kind: fc.constant('gzip on a pipe' as const), cuts: fc.array(fc.double({min: 0, max: 1, noNaN: true}), {maxLength: 8})}),
);

/** Splits NDJSON at line ends only: each file holds whole lines, as logs written by separate runs do. */
function atLineEnds(bytes: Buffer, cuts: number[]): Buffer[] {
	const ends: number[] = [];
	for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) ends.push(i + 1);
	const at = [...new Set(cuts.map(fraction => ends[Math.floor(fraction * ends.length)]))]
		.filter((i): i is number => i !== undefined && i < bytes.length)
		.sort((a, b) => a - b);
	return cut(
		bytes,
		at.map(i => i / bytes.length),
	).filter(piece => piece.length > 0);
}

/** Diagnostics name their source; a file's name is not a pipe's, so only their reasons are compared. */
const reasons = (stderr: string) => stderr.replace(/^perscope: [^\n]*?:(\d+): /gm, 'perscope: $1: ');

/** The tests of one mode: its golden files (when it has them) and the same output however the bytes arrive. */
export function describeHeadlessMode(mode: Mode): void {
	const runs = Number(process.env['PERSCOPE_PROPERTY_RUNS'] ?? '1');
	const scratch = mkdtempSync(join(tmpdir(), 'perscope-same-bytes-'));
	afterAll(() => rmSync(scratch, {recursive: true, force: true}));
	let written = 0;
	const scratchFile = (bytes: Buffer, extension: string): string => {
		const path = join(scratch, `${++written}${extension}`);
		writeFileSync(path, bytes);
		return path;
	};

	/** The reference read of each list of files, run once whichever test asks first. */
	const references = new Map<string, Promise<Output>>();
	const reference = (files: string[]): Promise<Output> => {
		const key = files.join('\n');
		let output = references.get(key);
		if (!output) {
			output = perscopeInProcess([...mode.args, ...files]);
			references.set(key, output);
		}

		return output;
	};

	const readAnotherWay = async (bytes: Buffer, chosen: Way): Promise<Output> => {
		switch (chosen.kind) {
			case 'pipe in pieces':
				return perscopeInProcess([...mode.args, '-'], trickle(bytes, chosen.seed, chosen.max));
			case 'several files':
				return perscopeInProcess([...mode.args, ...atLineEnds(bytes, chosen.cuts).map(piece => scratchFile(piece, '.ndjson'))]);
			case 'gzip file':
				return perscopeInProcess([...mode.args, scratchFile(gzipSync(bytes), '.ndjson.gz')]);
			case 'gzip on a pipe':
				return perscopeInProcess([...mode.args, '-'], cut(gzipSync(bytes), chosen.cuts));
		}
	};

	const {golden} = mode;
	if (golden) {
		describe(`${mode.name} output matches its golden file`, () => {
			it.concurrent.each(goldenFixtures())('%s', async fixture => {
				const {stdout, code} = await reference([`fixtures/${fixture}`]);
				expect(code).toBe(0);
				const path = goldenPath(fixture, golden);
				if (process.env['UPDATE_GOLDEN'] === '1') {
					mkdirSync(goldenDir, {recursive: true});
					writeFileSync(path, stdout);
				}

				expect(existsSync(path), `${path} is missing: UPDATE_GOLDEN=1 writes it; review it before committing`).toBe(true);
				expect(stdout).toBe(readFileSync(path, 'utf8'));
			});
		});
	}

	describe(`${mode.name} gives the same output however the bytes arrive (#21.4)`, () => {
		it.concurrent.each(sameBytesCases().map(c => [c.name, c] as const))('%s', async (_name, testCase) => {
			const expected = await reference(testCase.files);
			expect(expected.code).toBe(0);
			// Several files of one job are the same bytes as those files one after another.
			const bytes = Buffer.concat(testCase.files.map(file => readFileSync(join(repoRoot, file))));
			await fc.assert(
				fc.asyncProperty(way, async chosen => {
					const other = await readAnotherWay(bytes, chosen);
					expect(other.code).toBe(0);
					expect(other.stdout).toBe(expected.stdout);
					if (testCase.files.length === 1 && chosen.kind !== 'several files') expect(reasons(other.stderr)).toBe(reasons(expected.stderr));
				}),
				{numRuns: runs},
			);
		});
	});

	describe(`${mode.name}: the built CLI, run as a process, writes what the runs in this process write`, () => {
		// A recorded Perstack job with a delegate, an agent CLI's stream, and one whose bad line gives a diagnostic on stderr.
		const checked = ['real/delegate.ndjson', 'codex/edit-and-test.jsonl', 'gemini/samples/paperclip-3504-init-line-with-mcp-prefix.QUOTED-IN-ISSUE.jsonl'];
		it.concurrent.each(checked)('%s, from a file', async fixture => {
			const [spawned, inProcess] = await Promise.all([perscope([...mode.args, `fixtures/${fixture}`]), reference([`fixtures/${fixture}`])]);
			expect(spawned).toEqual(inProcess);
		});

		it.concurrent.each(checked)('%s, gzipped, from a pipe in small pieces', async fixture => {
			const bytes = gzipSync(readFileSync(join(repoRoot, 'fixtures', fixture)));
			const [spawned, inProcess] = await Promise.all([
				perscope([...mode.args, '-'], trickle(bytes, 3, 64)),
				perscopeInProcess([...mode.args, '-'], trickle(bytes, 3, 64)),
			]);
			expect(spawned).toEqual(inProcess);
		});
	});
}
