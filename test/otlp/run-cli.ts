import {spawn} from 'node:child_process';
import {cliPath, repoRoot} from '../helpers/cli-process.js';

export type CliResult = {
	code: number | null;
	stdout: string;
	stderr: string;
	ms: number;
	/** From the last output on stdout (a summary is written before the export's flush) to the exit. */
	afterStdoutMs: number;
};

/** Runs the built CLI with the given environment added (and no OTEL_* of the caller's), to its end. */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
	const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
	const started = Date.now();
	const child = spawn(process.execPath, [cliPath, ...args], {cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: {...base, CI: 'true', ...env}});
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
