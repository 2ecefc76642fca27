import {execFileSync} from 'node:child_process';
import {chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {gzipSync} from 'node:zlib';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {commandNotFoundExitCode, demoLogPath, InputError, resolveInputs} from './inputs.js';
import {openToEveryone, perscopeUnprivileged} from '../../test/helpers/unprivileged.js';

/*
 * Where events come from, decided and checked before anything is drawn: a typo ends the viewer with one
 * message and an exit code. Everything here is made in a temporary directory.
 */

let root = '';
let log = '';
let otherLog = '';
let bin = '';
let job = '';
let run = '';
let jobsRoot = '';
let plainDirectory = '';

beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), 'perscope-inputs-'));
	log = join(root, 'events.ndjson');
	otherLog = join(root, 'more.ndjson');
	writeFileSync(log, '{"type":"startRun"}\n');
	writeFileSync(otherLog, '');
	bin = join(root, 'bin');
	mkdirSync(bin);
	writeFileSync(join(bin, 'agent'), '#!/bin/sh\n');
	chmodSync(join(bin, 'agent'), 0o755);
	jobsRoot = join(root, 'perstack');
	job = join(jobsRoot, 'jobs', 'job-1');
	run = join(job, 'runs', 'run-1');
	mkdirSync(run, {recursive: true});
	writeFileSync(join(run, 'event-1795294857945-1-startRun.json'), '{}');
	plainDirectory = join(root, 'notes');
	mkdirSync(plainDirectory);
	writeFileSync(join(plainDirectory, 'todo.txt'), 'nothing to see');
});

afterAll(() => {
	rmSync(root, {recursive: true, force: true});
});

/** The error resolveInputs throws for `paths`, to look at its message and exit code. */
function refusal(paths: string[], context: Parameters<typeof resolveInputs>[1] = {stdinIsTTY: false}): InputError {
	try {
		resolveInputs(paths, context);
	} catch (error) {
		if (error instanceof InputError) return error;
		throw error;
	}

	throw new Error(`expected ${paths.join(' ')} to be refused`);
}

describe('resolveInputs', () => {
	it('reads the files it is given, in order, and names them all in the label', () => {
		expect(resolveInputs([log, otherLog], {stdinIsTTY: true})).toEqual({
			inputs: [
				{kind: 'file', path: log, label: log, form: {kind: 'plain', size: 20}},
				{kind: 'file', path: otherLog, label: otherLog, form: {kind: 'plain', size: 0}},
			],
			label: `${log}, ${otherLog}`,
			demo: false,
			follow: false,
			jobsRoot: undefined,
		});
	});

	it('looks once at what each file is, and says it in the plan: the readers look no more', () => {
		const compressed = join(root, 'rotated.1');
		writeFileSync(compressed, gzipSync('{"type":"startRun"}\n'));
		const fifo = join(root, 'pipe');
		execFileSync('mkfifo', [fifo]);
		const missing = join(root, 'not-yet.ndjson');
		const forms = resolveInputs([log, compressed, fifo, '/dev/null', missing], {stdinIsTTY: true, follow: true}).inputs.map(
			input => input.kind === 'file' && input.form,
		);
		expect(forms).toEqual([{kind: 'plain', size: 20}, {kind: 'gzip', size: statSync(compressed).size}, {kind: 'fifo'}, {kind: 'special'}, {kind: 'missing'}]);
	});

	it('a JSON document of events is read whole, a file of size 0 that is not empty (/proc) to its end, an empty one as a plain file', () => {
		const array = join(root, 'claude-execution-output.json');
		writeFileSync(array, '[\n  {"type": "system"}\n]\n');
		const empty = join(root, 'empty.ndjson');
		writeFileSync(empty, '');
		const paths = [array, empty, ...(existsSync('/proc/self/status') ? ['/proc/self/status'] : [])];
		const forms = resolveInputs(paths, {stdinIsTTY: true}).inputs.map(input => input.kind === 'file' && input.form);
		expect(forms).toEqual([
			{kind: 'json', size: statSync(array).size, rewritten: false},
			{kind: 'plain', size: 0},
			...(paths.length > 2 ? [{kind: 'special'}] : []),
		]);
	});

	it('reads stdin for `-`, also among files', () => {
		expect(resolveInputs(['-', log], {stdinIsTTY: true})).toMatchObject({
			inputs: [
				{kind: 'stdin', label: 'stdin'},
				{kind: 'file', path: log},
			],
			label: `stdin, ${log}`,
		});
	});

	it('reads piped stdin when no path is given', () => {
		expect(resolveInputs([], {stdinIsTTY: false})).toMatchObject({inputs: [{kind: 'stdin'}], label: 'stdin', demo: false});
	});

	it('shows the demo log, never followed, when nothing is given at a terminal', () => {
		expect(resolveInputs([], {stdinIsTTY: true, follow: true})).toEqual({
			inputs: [{kind: 'file', path: demoLogPath, label: 'demo', form: {kind: 'plain', size: statSync(demoLogPath).size}}],
			label: 'demo',
			demo: true,
			follow: false,
			jobsRoot: undefined,
		});
	});

	it('reads a job directory, or one run of it, as a job', () => {
		expect(resolveInputs([job], {stdinIsTTY: true}).inputs).toEqual([{kind: 'job', path: job, label: job}]);
		expect(resolveInputs([run], {stdinIsTTY: true}).inputs).toEqual([{kind: 'job', path: run, label: run}]);
	});

	it('lists the jobs of a directory of jobs rather than reading anything', () => {
		expect(resolveInputs([jobsRoot], {stdinIsTTY: true})).toEqual({inputs: [], label: jobsRoot, demo: false, follow: false, jobsRoot});
		expect(resolveInputs([join(jobsRoot, 'jobs')], {stdinIsTTY: true})).toMatchObject({jobsRoot: join(jobsRoot, 'jobs')});
	});

	it('refuses a directory of jobs given with anything else (exit code 2)', () => {
		expect(refusal([jobsRoot, log])).toMatchObject({
			exitCode: 2,
			message: `${jobsRoot} is a directory of jobs: give it on its own to list them, or name one job`,
		});
		expect(refusal([jobsRoot], {stdinIsTTY: true, command: {argv: ['agent'], searchPath: bin}})).toMatchObject({exitCode: 2});
	});

	it('refuses a directory that is neither a job nor a directory of jobs (exit code 1)', () => {
		expect(refusal([plainDirectory])).toMatchObject({
			exitCode: 1,
			message: `cannot read ${plainDirectory}: it is a directory, but not a Perstack job, a directory of jobs or a folder of Claude Code, Codex or Gemini CLI sessions`,
		});
	});

	it('refuses a file that does not exist (exit code 1), even after files that do', () => {
		const missing = join(root, 'missing.ndjson');
		expect(refusal([log, missing])).toMatchObject({exitCode: 1, message: `cannot read ${missing}: no such file`, name: 'InputError'});
	});

	it('waits for a file that does not exist yet when following', () => {
		const missing = join(root, 'later.ndjson');
		expect(resolveInputs([missing], {stdinIsTTY: true, follow: true})).toMatchObject({inputs: [{kind: 'file', path: missing}], follow: true});
	});

	it('refuses a file it may not read (exit code 1), also where the tests run as root: then as an unprivileged user', () => {
		const secret = join(root, 'secret.ndjson');
		writeFileSync(secret, '');
		openToEveryone([root], secret);
		chmodSync(secret, 0o000);
		const result = perscopeUnprivileged(['--print', secret]);
		expect(result).toMatchObject({status: 1, stdout: '', stderr: `perscope: cannot read ${secret}: permission denied\n`});
	});

	it('reads a command’s output after the files, labelled by its command line', () => {
		expect(resolveInputs([log], {stdinIsTTY: true, command: {argv: ['agent', '--json', 'go'], searchPath: bin}})).toMatchObject({
			inputs: [
				{kind: 'file', path: log},
				{kind: 'command', command: ['agent', '--json', 'go'], label: 'agent --json go'},
			],
			label: `${log}, agent --json go`,
		});
	});

	it('refuses a command it cannot run with the shell’s 127, and a missing one with 2', () => {
		expect(commandNotFoundExitCode).toBe(127);
		expect(refusal([], {stdinIsTTY: true, command: {argv: ['agnet'], searchPath: bin}})).toMatchObject({
			exitCode: 127,
			message: 'cannot run agnet: command not found',
		});
		expect(refusal([], {stdinIsTTY: true, command: {argv: [], searchPath: bin}})).toMatchObject({exitCode: 2, message: 'no command after --'});
		expect(refusal([], {stdinIsTTY: true, command: {argv: [''], searchPath: bin}})).toMatchObject({exitCode: 2});
	});
});
