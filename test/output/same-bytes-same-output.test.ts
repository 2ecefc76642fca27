import {spawn} from 'node:child_process';
import {mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {gzipSync} from 'node:zlib';
import fc from 'fast-check';
import {afterAll, describe, expect, it} from 'vitest';
import {cliPath, repoRoot} from '../helpers/cli-process.js';
import {agentCliFixtures, eventLogFixtures} from '../helpers/fixture-files.js';

/*
 * #21.4: the headless outputs are a function of the bytes alone. Every fixture, in every headless mode, is
 * read once as a file (the reference) and once more in a way chosen at random: a pipe that delivers it in
 * random small pieces, several files cut at random line boundaries, a .gz file, or a .gz on a pipe.
 * stdout and stderr must be byte-identical. PERSCOPE_PROPERTY_RUNS raises the number of random ways per case.
 */

const runs = Number(process.env['PERSCOPE_PROPERTY_RUNS'] ?? '1');
const scratch = mkdtempSync(join(tmpdir(), 'perscope-same-bytes-'));
afterAll(() => rmSync(scratch, {recursive: true, force: true}));

type Case = {name: string; files: string[]};

function cases(): Case[] {
	// The one stream with a bad line names its source in --summary --json's diagnostics: a file's is not a pipe's.
	const agentClis = agentCliFixtures().filter(name => !name.includes('paperclip-3504'));
	const single = [...eventLogFixtures(), ...agentClis].map(name => ({name, files: [join(repoRoot, 'fixtures', name)]}));
	// One job in two files, as `--continue-job` writes it: the second holds the answer to the first's question.
	const continued = {name: 'real/interactive-1 + interactive-2-continue', files: ['interactive-1.ndjson', 'interactive-2-continue.ndjson'].map(name => join(repoRoot, 'fixtures/real', name))};
	const branches = {name: 'branches/ (run, --continue-job, --resume-from)', files: ['1-run.ndjson', '2-continue-job.ndjson', '3-resume-from.ndjson'].map(name => join(repoRoot, 'fixtures/branches', name))};
	// The released CLI's follow-up: the second file continues the first's run id.
	const followUp = {name: 'released/followup-1 + followup-2-continue', files: ['followup-1.ndjson', 'followup-2-continue.ndjson'].map(name => join(repoRoot, 'fixtures/released', name))};
	return [...single, continued, branches, followUp];
}

const modes = [
	{name: '--print', args: ['--print']},
	{name: '--json', args: ['--json']},
	{name: '--summary', args: ['--summary']},
	{name: '--summary --json', args: ['--summary', '--json']},
] as const;

type Output = {stdout: string; stderr: string; code: number | null};

/** Runs the built CLI; `pieces`, when given, are written to its stdin one after another with a pause between. */
async function perscope(args: string[], pieces?: Buffer[]): Promise<Output> {
	const child = spawn(process.execPath, [cliPath, ...args], {cwd: repoRoot, stdio: [pieces ? 'pipe' : 'ignore', 'pipe', 'pipe'], env: {...process.env, CI: 'true'}});
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
function trickle(bytes: Buffer, seed: number, max: number): Buffer[] {
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

let written = 0;
function scratchFile(bytes: Buffer, extension: string): string {
	const path = join(scratch, `${++written}${extension}`);
	writeFileSync(path, bytes);
	return path;
}

/** Splits NDJSON at line ends only: each file holds whole lines, as logs written by separate runs do. */
function atLineEnds(bytes: Buffer, cuts: number[]): Buffer[] {
	const ends: number[] = [];
	for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) ends.push(i + 1);
	const at = [...new Set(cuts.map(fraction => ends[Math.floor(fraction * ends.length)]))].filter((i): i is number => i !== undefined && i < bytes.length).sort((a, b) => a - b);
	return cut(bytes, at.map(i => i / bytes.length)).filter(piece => piece.length > 0);
}

async function readAnotherWay(args: readonly string[], bytes: Buffer, chosen: Way): Promise<Output> {
	switch (chosen.kind) {
		case 'pipe in pieces':
			return perscope([...args, '-'], trickle(bytes, chosen.seed, chosen.max));
		case 'several files':
			return perscope([...args, ...atLineEnds(bytes, chosen.cuts).map(piece => scratchFile(piece, '.ndjson'))]);
		case 'gzip file':
			return perscope([...args, scratchFile(gzipSync(bytes), '.ndjson.gz')]);
		case 'gzip on a pipe':
			return perscope([...args, '-'], cut(gzipSync(bytes), chosen.cuts));
	}
}

describe.each(modes)('$name gives the same output however the bytes arrive (#21.4)', mode => {
	it.concurrent.each(cases().map(c => [c.name, c] as const))('%s', async (_name, testCase) => {
		const reference = await perscope([...mode.args, ...testCase.files]);
		expect(reference.code).toBe(0);
		// Several files of one job are the same bytes as those files one after another.
		const bytes = Buffer.concat(testCase.files.map(file => readFileSync(file)));
		// Diagnostics name their source; a file's name is not a pipe's, so only their reasons are compared.
		const reasons = (stderr: string) => stderr.replace(/^perscope: [^\n]*?:(\d+): /gm, 'perscope: $1: ');
		await fc.assert(
			fc.asyncProperty(way, async chosen => {
				const other = await readAnotherWay(mode.args, bytes, chosen);
				expect(other.code).toBe(0);
				expect(other.stdout).toBe(reference.stdout);
				if (testCase.files.length === 1 && chosen.kind !== 'several files') expect(reasons(other.stderr)).toBe(reasons(reference.stderr));
			}),
			{numRuns: runs},
		);
	});
});

describe('results reach their activities in --json (#21.4)', () => {
	it('a delegate read from a pipe carries the child\'s answer, as it does from the file', async () => {
		const file = join(repoRoot, 'fixtures/real/delegate.ndjson');
		const piped = await perscope(['--json', '-'], trickle(readFileSync(file), 7, 64));
		const delegate = piped.stdout.split('\n').filter(Boolean).map(line => JSON.parse(line)).find(activity => activity.type === 'delegate');
		expect(delegate.result.text).toBe("The workspace contains one file: README.txt (one line: 'hello from the workspace').");
	});

	it('an interactive question in one file carries the answer that the next file of the job holds', async () => {
		const files = ['interactive-1.ndjson', 'interactive-2-continue.ndjson'].map(name => join(repoRoot, 'fixtures/real', name));
		const {stdout} = await perscope(['--json', ...files]);
		const ask = stdout.split('\n').filter(Boolean).map(line => JSON.parse(line)).find(activity => activity.type === 'interactiveTool');
		expect(ask.result).toEqual({text: 'Blue, please.', error: null});
	});

	it('--print says what a delegate answered, on a line of its own after the child\'s work', async () => {
		const {stdout} = await perscope(['--print', join(repoRoot, 'fixtures/real/delegate.ndjson')]);
		const lines = stdout.split('\n');
		const answer = lines.indexOf("[coordinator] ← child-expert: The workspace contains one file: README.txt (one line: 'hello from the workspace').");
		expect(answer).toBeGreaterThan(lines.findIndex(line => line.includes('[child-expert] ✅ complete')));
	});
});
