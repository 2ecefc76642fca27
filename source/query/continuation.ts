import type {Model, Run} from '../model/state.js';
import {answerArgument, originalQuery, shellQuote, type InteractiveStop} from './resume-command.js';
import {perstackRunArgv, runnerOfLog, type PerstackRunner} from './perstack-runner.js';
import {defaultClaudeRunner, type ClaudeRunner} from './claude-runner.js';

/*
 * A command that carries a job on, to run as the viewer's child (the cockpit's `a` and `R`): the arguments
 * exactly, never through a shell, and the one line a person sees and confirms (each word shell-quoted, so
 * that pasting it runs the same thing). Every value from the log is one argument, whatever it holds.
 */

export type Continuation = {
	/** `message`: a prompt sent to a session that waits on no question (Claude Code's). */
	kind: 'answer' | 'resume' | 'message';
	jobId: string;
	argv: readonly string[];
	/** The command on one line, as a shell reads it back into `argv`. */
	line: string;
};

function continuation(kind: Continuation['kind'], jobId: string, argv: string[]): Continuation {
	return {kind, jobId, argv, line: argv.map(word => shellQuote(word)).join(' ')};
}

/** `perstack run <coordinator> <answer> --continue-job <job> -i`, in the form the stop needs (`answerForm`). */
export function answerContinuation(stop: InteractiveStop, answer: string, runner: PerstackRunner = stop.runner): Continuation {
	const jobId = stop.run.jobId;
	return continuation(
		'answer',
		jobId,
		perstackRunArgv(runner, ['--continue-job', jobId, '-i'], stop.coordinator, answerArgument(stop.activity, stop.answerForm, answer)),
	);
}

/**
 * `perstack run <expert> <query> --continue-job <job> --resume-from <checkpoint>`: undefined where the runtime
 * cannot resume (not a Perstack coordinator's checkpoint) or the log does not hold the query to resume with.
 */
export function resumeContinuation(
	model: Model,
	run: Run,
	checkpointId: string,
	runner: PerstackRunner = runnerOfLog(model, run.jobId),
): Continuation | undefined {
	if (run.dialect !== 'perstack' || run.parentRunId !== null) return undefined;
	const query = originalQuery(model, run);
	if (query === undefined) return undefined;
	return continuation('resume', run.jobId, perstackRunArgv(runner, ['--continue-job', run.jobId, '--resume-from', checkpointId], run.expertKey, query));
}

/** A Claude Code session's id, as the CLI makes them (a UUID): anything else is not one `claude --resume` takes. */
const sessionId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `claude --resume <session>`: Claude Code carries on a session it kept (its stream's `session_id`, its transcript's
 * `sessionId`: the job's id) where it left off, in the terminal it is run in; with the program of the command that
 * started it, when perscope did (`npx @anthropic-ai/claude-code@2.1.197`, a path), not its options: those kept for `-p`
 * (claude-runner.ts) include some that only print mode takes. Undefined for a job whose id is no session's (a stream
 * that names none).
 */
export function claudeSessionContinuation(jobId: string, runner: ClaudeRunner = defaultClaudeRunner): Continuation | undefined {
	return sessionId.test(jobId) ? continuation('resume', jobId, [...runner.program, '--resume', jobId]) : undefined;
}

/**
 * `claude -p <message> --resume <session> --output-format stream-json --verbose`: the session takes the message as its
 * next prompt, and its stream is read into the viewer as `-- COMMAND`'s is, the same job (the session) going on;
 * with the program and options of the command that started it, when perscope did (claude-runner.ts). Undefined for
 * a job whose id is no session's.
 */
export function claudeSessionMessage(jobId: string, message: string, runner: ClaudeRunner = defaultClaudeRunner): Continuation | undefined {
	return sessionId.test(jobId)
		? continuation('message', jobId, [...runner.program, '-p', message, '--resume', jobId, '--output-format', 'stream-json', '--verbose', ...runner.options])
		: undefined;
}
