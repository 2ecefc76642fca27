import {describe, expect, it} from 'vitest';
import {Ingest} from '../load/ingest.js';
import {resolveInputs} from './inputs.js';
import {runSources} from './run-sources.js';
import type {SourceState} from './source-state.js';
import {maxStderrLineLength, maxStderrLines} from './command/stderr-tail.js';
import {waitUntil} from '../../test/helpers/cli-process.js';
import {runLines} from '../../test/helpers/events.js';

// The PATH the CLI would pass for a command to be looked up in.
const searchPath = process.env['PATH'] ?? '';

function runCommand(source: string, hooks: {onStderr?: (text: string, state: SourceState) => void; onChange?: () => void; idleAfterExitMs?: number} = {}) {
	const ingest = new Ingest({maxLineBytes: 1024 * 1024});
	const plan = resolveInputs([], {stdinIsTTY: false, command: {argv: [process.execPath, '-e', source], searchPath}});
	const running = runSources(plan, ingest, hooks);
	return {ingest, plan, running, state: running.states[0]!};
}

describe('runSources with a command', () => {
	it('keeps the latest stderr lines in a bounded ring, cut to length, and says how it ended', async () => {
		const passed: string[] = [];
		let changes = 0;
		const {ingest, plan, running, state} = runCommand(
			`process.stdout.write(${JSON.stringify(runLines('ring', 1))});
			for (let i = 1; i <= 600; i++) process.stderr.write('line ' + i + '\\n');
			process.stderr.write('x'.repeat(5000) + '\\n');
			process.exitCode = 2;`,
			{onStderr: text => passed.push(text), onChange: () => changes++},
		);
		expect(plan.inputs).toEqual([{kind: 'command', command: [process.execPath, '-e', expect.any(String)], label: expect.any(String)}]);
		expect(state).toMatchObject({kind: 'command', live: true, command: plan.inputs[0]?.kind === 'command' ? plan.inputs[0].command : []});
		expect(state.pid).toEqual(expect.any(Number));
		expect(running.childRunning()).toBe(true);

		expect(await running.done).toBe(2);
		expect(state).toMatchObject({live: false, exitCode: 2, signal: null, stderrCount: 601, error: undefined});
		expect(state.stderr).toHaveLength(maxStderrLines);
		expect(state.stderr[0]).toBe('line 102');
		expect(state.stderr.at(-1)).toBe('x'.repeat(maxStderrLineLength) + '…');
		expect(passed).toHaveLength(601);
		expect(changes).toBeGreaterThan(600);
		expect(running.childRunning()).toBe(false);
		expect(running.interrupt()).toBe(false);
		expect(ingest.model.activities.map(activity => activity.type)).toEqual(['query', 'complete']);
	}, 15_000);

	it('interrupt() sends SIGINT, stop() sends SIGTERM', async () => {
		const waiting = `process.stdout.write('{"ready":1}\\n'); setInterval(() => undefined, 60000);`;
		const interrupted = runCommand(waiting);
		await waitUntil(() => interrupted.ingest.model.diagnostics.length === 1, 'the child to start');
		expect(interrupted.running.interrupt()).toBe(true);
		expect(await interrupted.running.done).toBe(130);
		expect(interrupted.state).toMatchObject({exitCode: null, signal: 'SIGINT'});

		const stopped = runCommand(waiting);
		await waitUntil(() => stopped.ingest.model.diagnostics.length === 1, 'the child to start');
		stopped.running.stop();
		expect(await stopped.running.done).toBe(143);
		expect(stopped.state).toMatchObject({exitCode: null, signal: 'SIGTERM', live: false});
	}, 15_000);

	it('after the child exits, reads on while something it started holds the pipes, and ends after the idle bound it is given', async () => {
		const started = Date.now();
		let outputOpenSeen = false;
		const {running, state, ingest} = runCommand(
			`const {spawn} = require('node:child_process');
			const left = spawn(process.execPath, ['-e', 'setTimeout(() => undefined, 20000)'], {stdio: ['ignore', 'inherit', 'inherit'], detached: true});
			left.unref();
			process.stderr.write('left behind ' + left.pid + '\\n');
			process.stdout.write(${JSON.stringify(runLines('linger', 1))});`,
			{idleAfterExitMs: 2000, onChange: () => (outputOpenSeen ||= state.outputOpen === true)},
		);
		expect(await running.done).toBe(0);
		expect(Date.now() - started).toBeLessThan(8000);
		expect(state.exitCode).toBe(0);
		expect(outputOpenSeen).toBe(true);
		expect(state.outputOpen).toBe(false);
		expect(ingest.model.activities).toHaveLength(2);
		expect(ingest.model.diagnostics).toEqual([
			{
				line: 0,
				source: state.label,
				reason: expect.stringMatching(/exited, and its output stayed open with nothing more for 2 s \(something it started holds it\): not read further$/),
			},
		]);
		const leftBehind = Number(/left behind (\d+)/.exec(state.stderr.join('\n'))?.[1]);
		expect(leftBehind).toBeGreaterThan(0);
		process.kill(leftBehind, 'SIGKILL');
	}, 15_000);
});

describe('resolveInputs', () => {
	it('checks a command up front: 127 when it cannot run, 2 when there is none', () => {
		expect(() => resolveInputs([], {stdinIsTTY: false, command: {argv: ['perscope-no-such-command-xyz'], searchPath}})).toThrow(
			expect.objectContaining({message: 'cannot run perscope-no-such-command-xyz: command not found', exitCode: 127}),
		);
		expect(() => resolveInputs([], {stdinIsTTY: false, command: {argv: ['./no/such/file'], searchPath}})).toThrow(
			expect.objectContaining({message: 'cannot run ./no/such/file: no such file', exitCode: 127}),
		);
		expect(() => resolveInputs([], {stdinIsTTY: false, command: {argv: ['./test'], searchPath}})).toThrow(
			expect.objectContaining({message: 'cannot run ./test: it is a directory', exitCode: 127}),
		);
		expect(() => resolveInputs([], {stdinIsTTY: false, command: {argv: [], searchPath}})).toThrow(expect.objectContaining({exitCode: 2}));
	});

	it('lets a missing file be waited for only when following', () => {
		expect(() => resolveInputs(['no-such.ndjson'], {stdinIsTTY: false})).toThrow(
			expect.objectContaining({message: 'cannot read no-such.ndjson: no such file', exitCode: 1}),
		);
		expect(resolveInputs(['no-such.ndjson'], {stdinIsTTY: false, follow: true})).toMatchObject({
			inputs: [{kind: 'file', path: 'no-such.ndjson'}],
			follow: true,
		});
	});

	it('refuses a directory that holds no jobs', () => {
		expect(() => resolveInputs(['source'], {stdinIsTTY: false})).toThrow(
			expect.objectContaining({exitCode: 1, message: expect.stringMatching(/it is a directory/)}),
		);
	});

	it('reads a command instead of stdin or the demo when one is given', () => {
		expect(resolveInputs([], {stdinIsTTY: true, command: {argv: ['node', '--version'], searchPath}})).toMatchObject({
			inputs: [{kind: 'command', command: ['node', '--version'], label: 'node --version'}],
			label: 'node --version',
			demo: false,
		});
	});
});
