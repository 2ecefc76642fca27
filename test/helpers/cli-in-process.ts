import {PassThrough, Writable} from 'node:stream';
import {resolve} from 'node:path';
import {runCli} from '../../source/cli/run-cli.js';
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

/**
 * Runs the CLI in this process, as `perscope ARGS` from the repository's root with CI=true (and `env`): the same code from
 * the arguments on (cli/run-cli.ts), its stdout and stderr collected, and `pieces`, when given, its stdin, one
 * piece after another with a pause between. A spawned CLI costs a Node start and the loading of its modules
 * (~0.2 s of CPU), which the golden tests would pay hundreds of times; test/output/headless-outputs.ts keeps a
 * few real processes to hold the built CLI to the same output.
 */
export async function perscopeInProcess(args: readonly string[], pieces?: Buffer[], env: Record<string, string> = {}): Promise<Output> {
	// The paths given are relative to the repository's root, and diagnostics name them as given.
	if (resolve(process.cwd()) !== resolve(repoRoot)) throw new Error(`run vitest from ${repoRoot} (it runs from ${process.cwd()})`);
	const stdin = new PassThrough();
	const stdout = new Collected();
	const stderr = new Collected();
	const running = runCli([...args], {streams: {stdin, stdout, stderr}, env: {...process.env, CI: 'true', ...env}});
	if (pieces) {
		for (const piece of pieces) {
			if (!stdin.write(piece)) await new Promise(resolve => stdin.once('drain', resolve));
			// A pause lets the reader take this piece on its own instead of joined with the next.
			await new Promise(resolve => setImmediate(resolve));
		}
	}

	// No pieces: stdin is empty, as the spawned CLI's closed stdin is.
	stdin.end();
	const code = await running;
	return {stdout: stdout.text(), stderr: stderr.text(), code};
}
