import {spawn} from 'node:child_process';
import {builtPerscopeInProcess} from '../helpers/cli-in-process.js';
import {cliPath, repoRoot} from '../helpers/cli-process.js';

export type CliResult = {
	code: number | null;
	stdout: string;
	stderr: string;
	ms: number;
	/** From the last output on stdout (a summary is written before the export's flush) to the exit. */
	afterStdoutMs: number;
};

/** This process's environment without the caller's OTEL_* (the tests say which they mean). */
function withoutOtel(): NodeJS.ProcessEnv {
	return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
}

/**
 * Runs the built CLI as a process, with the given environment added (and no OTEL_* of the caller's), to its end:
 * for what only a process shows (how long it takes to exit, a preloaded module). The others run it in this
 * process (`exportInProcess`).
 */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
	const started = Date.now();
	const child = spawn(process.execPath, [cliPath, ...args], {cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: {...withoutOtel(), CI: 'true', ...env}});
	let stdout = '';
	let stderr = '';
	let stdoutAt = started;
	child.stdout.setEncoding('utf8').on('data', (text: string) => {
		stdout += text;
		stdoutAt = Date.now();
	});
	child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
	const code = await new Promise<number | null>((resolve, reject) => {
		child.once('error', reject);
		child.once('close', resolve);
	});
	const ended = Date.now();
	return {code, stdout, stderr, ms: ended - started, afterStdoutMs: ended - stdoutAt};
}

export type InProcessResult = Omit<CliResult, 'afterStdoutMs'>;

/**
 * The built CLI's code run in this process (test/helpers/cli-in-process.ts), as `runCli` runs it: what it sends,
 * writes and says, without the start of a Node process and the loading of the OpenTelemetry packages each time
 * (~0.4 s of CPU a run). perscope registers nothing of OpenTelemetry's process-wide (no global tracer provider,
 * propagator or diagnostic logger: it hands its spans to an exporter of its own), so runs do not see each other.
 * Not for a run whose flush gives up on a request still out: the CLI then ends its process (headless.ts).
 */
export async function exportInProcess(args: string[], env: Record<string, string> = {}): Promise<InProcessResult> {
	const started = Date.now();
	const output = await builtPerscopeInProcess(args, env, withoutOtel());
	return {...output, ms: Date.now() - started};
}
