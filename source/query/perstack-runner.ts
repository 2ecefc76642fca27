import type {Model} from '../model/state.js';

/*
 * How a continuation runs the runtime again: the same program and the same options as the command that started
 * the job, when perscope started it (`perscope -- npx perstack run --runtime local …`). The released CLI runs in
 * Docker unless told otherwise, so `--runtime local` left out would carry the job on somewhere else; options that
 * name a job, a run or a query are the continuation's own.
 */

/** The runtime's program words (`perstack`, `npx perstack@0.0.54`) and the options a continuation keeps. */
export type PerstackRunner = {program: readonly string[]; options: readonly string[]};

/** Where nothing says otherwise: the CLI on PATH, with no options. */
export const defaultRunner: PerstackRunner = {program: ['perstack'], options: []};

/** `perstack run`'s options that take a value (as its CLI declares them, the release and later main alike). */
const valued: ReadonlySet<string> = new Set([
	'--config',
	'--provider',
	'--model',
	'--reasoning-budget',
	'--max-steps',
	'--max-retries',
	'--timeout',
	'--job-id',
	'--run-id',
	'--env-path',
	'--env',
	'--continue-job',
	'--resume-from',
	'--runtime',
	'--workspace',
]);
/** Options that belong to the run they were given to, never to its continuation. */
const ownedByTheRun: ReadonlySet<string> = new Set([
	'--job-id',
	'--run-id',
	'--continue',
	'--continue-job',
	'--resume-from',
	'-i',
	'--interactive-tool-call-result',
]);

/**
 * The runner of a job perscope did not start: the CLI on PATH, with `--runtime` as the job's log names it. The
 * name is event text: only a plain word (as the runtimes are named) becomes an option.
 */
export function runnerOfLog(model: Model, jobId: string): PerstackRunner {
	const runtimeName = model.jobs.get(jobId)?.runtimeName;
	if (runtimeName === undefined || !/^[a-z][a-z0-9-]{0,39}$/.test(runtimeName)) return defaultRunner;
	return {program: defaultRunner.program, options: ['--runtime', runtimeName]};
}

/**
 * The runner of a command that runs `perstack run` (any word before `run` naming perstack: a path, `npx`, a
 * version), or undefined for any other command.
 */
export function perstackRunnerOf(command: readonly string[]): PerstackRunner | undefined {
	const runAt = command.findIndex((word, index) => word === 'run' && command.slice(0, index).some(earlier => /perstack/i.test(earlier)));
	if (runAt < 0) return undefined;
	const options: string[] = [];
	for (let at = runAt + 1; at < command.length; at++) {
		const word = command[at]!;
		// After `--` there are only the expert and the query.
		if (word === '--') break;
		if (!word.startsWith('-') || word === '-') continue;
		const equals = word.indexOf('=');
		const name = equals < 0 ? word : word.slice(0, equals);
		const takesNext = equals < 0 && valued.has(name) && at + 1 < command.length;
		const words = takesNext ? [word, command[at + 1]!] : [word];
		if (takesNext) at++;
		if (!ownedByTheRun.has(name)) options.push(...words);
	}

	return {program: command.slice(0, runAt), options};
}

/**
 * `<program> run <options> <own> <expert> <text>`: the expert and the text go after `--` when either begins with
 * `-`, where the CLI would take it for an option.
 */
export function perstackRunArgv(runner: PerstackRunner, own: readonly string[], expert: string, text: string): string[] {
	const positionals = expert.startsWith('-') || text.startsWith('-') ? ['--', expert, text] : [expert, text];
	return [...runner.program, 'run', ...runner.options, ...(positionals.length === 3 ? own : []), ...positionals, ...(positionals.length === 3 ? [] : own)];
}
