import {spawn, type ChildProcess} from 'node:child_process';
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const cliPath = fileURLToPath(new URL('../../dist/bin/perscope.js', import.meta.url));
/** The built CLI with the loaders' settings for tests from PERSCOPE_* variables (tuned-perscope.mjs says which). */
export const tunedCliPath = fileURLToPath(new URL('tuned-perscope.mjs', import.meta.url));

export type Exit = {code: number | null; signal: NodeJS.Signals | null};

export type CliRun = {
	child: ChildProcess;
	stdout: () => string;
	stderr: () => string;
	/** Each complete stdout line with the time (Date.now()) it reached us. */
	stdoutLines: Array<{text: string; at: number}>;
	exit: Promise<Exit>;
};

/**
 * Runs the built CLI as a real process, the way CI does: no TTY, stdin closed, CI=true. Output is
 * collected as it arrives so a test can look at it while the process runs. `tuned`: through tuned-perscope.mjs,
 * which takes the loaders' settings for tests from `env`.
 */
export function startCli(args: string[], options: {cwd?: string; env?: Record<string, string>; tuned?: boolean} = {}): CliRun {
	if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: run \`npm run build\` first`);
	const child = spawn(process.execPath, [options.tuned ? tunedCliPath : cliPath, ...args], {
		cwd: options.cwd ?? repoRoot,
		stdio: ['ignore', 'pipe', 'pipe'],
		env: {...process.env, CI: 'true', ...options.env},
	});
	let stdout = '';
	let stderr = '';
	let partial = '';
	const stdoutLines: CliRun['stdoutLines'] = [];
	child.stdout.setEncoding('utf8');
	child.stderr.setEncoding('utf8');
	child.stdout.on('data', (text: string) => {
		const at = Date.now();
		stdout += text;
		const pieces = (partial + text).split('\n');
		partial = pieces.pop() ?? '';
		for (const line of pieces) stdoutLines.push({text: line, at});
	});
	child.stderr.on('data', (text: string) => {
		stderr += text;
	});
	const exit = new Promise<Exit>((resolve, reject) => {
		child.once('error', reject);
		child.once('close', (code, signal) => resolve({code, signal}));
	});
	return {child, stdout: () => stdout, stderr: () => stderr, stdoutLines, exit};
}

/** Polls `check` until it holds; fails with `what` and the given context after `timeoutMs`. */
export async function waitUntil(check: () => boolean, what: string, context: () => string = () => '', timeoutMs = 8000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${context()}`);
		await new Promise(resolve => setTimeout(resolve, 20));
	}
}

export function countOf(text: string, needle: string): number {
	return text.split(needle).length - 1;
}

/**
 * Waits until one of the process's threads is blocked opening a FIFO that has no writer (Linux: its wchan is
 * the kernel's wait_for_partner), so that a test acts on a program that has reached that wait, not on one still
 * starting up.
 */
export async function waitForFifoOpen(pid: number): Promise<void> {
	const waiting = () => {
		try {
			return readdirSync(`/proc/${pid}/task`).some(task => readFileSync(`/proc/${pid}/task/${task}/wchan`, 'utf8') === 'wait_for_partner');
		} catch {
			return false;
		}
	};

	await waitUntil(waiting, `process ${pid} to wait in the FIFO's open`);
}
