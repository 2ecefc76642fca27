import {PassThrough, Writable} from 'node:stream';
import {join, resolve} from 'node:path';
import {pathToFileURL} from 'node:url';
import {runCli} from '../../source/cli/run-cli.js';
import type {LoadTuning} from '../../source/load/tuning.js';
import {repoRoot} from './cli-process.js';

export type Output = {stdout: string; stderr: string; code: number | null};

/** A stream that keeps every byte written to it, as a pipe to a reader that reads everything would. */
class Collected extends Writable {
	readonly #pieces: Buffer[] = [];

	override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: () => void): void {
		this.#pieces.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
		callback();
	}

	text(): string {
		return Buffer.concat(this.#pieces).toString('utf8');
	}
}

/** Pieces of stdin written without a pause between reach the reader as one read, up to this many bytes. */
const joinedBytes = 16;

/**
 * Runs the CLI in this process, as `perscope ARGS` from the repository's root with CI=true (and `env`): the same code from
 * the arguments on (cli/run-cli.ts), its stdout and stderr collected, and `pieces`, when given, its stdin, one
 * piece after another (joined as a pipe joins them, see below). A spawned CLI costs a Node start and the loading of its modules
 * (~0.2 s of CPU), which the golden tests would pay hundreds of times; test/output/headless-outputs.ts keeps a
 * few real processes to hold the built CLI to the same output.
 */
export async function perscopeInProcess(args: readonly string[], pieces?: Buffer[], env: Record<string, string> = {}): Promise<Output> {
	return runInProcess(runCli, args, pieces, env);
}

/**
 * As perscopeInProcess, but the built CLI's code (dist/cli/run-cli.js): for runs whose workers run built code
 * (the chunk workers of the fast path, started by URL beside the module that starts them). `base` is the
 * environment `env` is added to (this process's by default); `tuning`, the loaders' settings for tests.
 */
export async function builtPerscopeInProcess(
	args: readonly string[],
	env: Record<string, string> = {},
	base: NodeJS.ProcessEnv = process.env,
	tuning?: LoadTuning,
): Promise<Output> {
	const built = (await import(pathToFileURL(join(repoRoot, 'dist/cli/run-cli.js')).href)) as {runCli: typeof runCli};
	return runInProcess(built.runCli, args, undefined, env, base, tuning);
}

async function runInProcess(
	run: typeof runCli,
	args: readonly string[],
	pieces: Buffer[] | undefined,
	env: Record<string, string>,
	base: NodeJS.ProcessEnv = process.env,
	tuning?: LoadTuning,
): Promise<Output> {
	// The paths given are relative to the repository's root, and diagnostics name them as given.
	if (resolve(process.cwd()) !== resolve(repoRoot)) throw new Error(`run vitest from ${repoRoot} (it runs from ${process.cwd()})`);
	const stdin = new PassThrough();
	const stdout = new Collected();
	const stderr = new Collected();
	const running = run([...args], {streams: {stdin, stdout, stderr}, env: {...base, CI: 'true', ...env}, tuning});
	if (pieces) {
		let sincePause = 0;
		for (const piece of pieces) {
			if (!stdin.write(piece)) await new Promise(resolve => stdin.once('drain', resolve));
			sincePause += piece.length;
			// A pause lets the reader take what was written since the last one, as one read. A real pipe joins what
			// its reader has not taken yet: pieces of a byte or a few reach a process's reads joined into more.
			// Here the reader runs on this thread, so a pause after every byte of a large fixture took most of the
			// test's time; tiny pieces are joined up to `joinedBytes`, still cut at the pieces' own random places.
			if (sincePause >= joinedBytes) {
				sincePause = 0;
				await new Promise(resolve => setImmediate(resolve));
			}
		}
	}

	// No pieces: stdin is empty, as the spawned CLI's closed stdin is.
	stdin.end();
	const code = await running;
	return {stdout: stdout.text(), stderr: stderr.text(), code};
}
