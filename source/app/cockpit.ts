import {existsSync} from 'node:fs';
import {basename, dirname, join, resolve} from 'node:path';
import {whyNotRunnable} from '../input/command/command-lookup.js';
import {sessionDirectory} from '../input/claude-sessions.js';
import type {InputPlan} from '../input/inputs.js';
import {inputEndOf} from '../input/source-state.js';
import type {RawEvents} from '../input/reread/raw-events.js';
import type {Loading} from '../load/loader.js';
import {endInput, reopenInput} from '../model/state.js';
import type {Continuation} from '../query/continuation.js';
import {perstackRunnerOf, runnerOfLog, type PerstackRunner} from '../query/perstack-runner.js';
import {claudeRunnerOf, defaultClaudeRunner} from '../query/claude-runner.js';
import {sanitizeLine} from '../text/sanitize.js';
import type {CockpitActions} from '../view-model/cockpit.js';
import {clipboardSequence, showOnShellScreen} from '../views/terminal.js';

/*
 * The viewer's hands (`a`, `R`, `K`, `y`): a continuation runs as the viewer's child, as `-- COMMAND` does, its
 * events joining the same model (Loading.addCommand). It runs where the runtime finds the job's checkpoints: the
 * job's workspace, which holds `perstack/jobs/<jobId>`; a Claude Code session's message (`a`), in the directory the
 * session ran in (its lines name it), else perscope's.
 */

export type CockpitSetup = {
	plan: InputPlan;
	loading: Loading;
	raw: RawEvents;
	/** Something changed that the views show (a command started or ended). */
	changed: () => void;
	/** The exit code of the last continuation, once it has exited: the viewer's own from then on. */
	onExit: (code: number) => void;
	/** PATH, to look the runtime's program up before running it. */
	searchPath: string;
	cwd: string;
	stdout: NodeJS.WriteStream;
};

export type Cockpit = CockpitActions & {
	/** The continuations started so far, each settling with its exit code. */
	readonly started: ReadonlyArray<Promise<number>>;
};

export function createCockpit(setup: CockpitSetup): Cockpit {
	const {plan, loading} = setup;
	// Perscope started the job (`perscope -- perstack run …`): the same program and options carry it on.
	const command = plan.inputs.find(input => input.kind === 'command');
	const startedRunner = command ? perstackRunnerOf(command.command) : undefined;
	// Perscope started Claude Code (`perscope -- claude -p …`): a session's next prompt keeps its program and options.
	const claudeRunner = (command ? claudeRunnerOf(command.command) : undefined) ?? defaultClaudeRunner;
	const started: Array<Promise<number>> = [];
	let back: (() => void) | undefined;

	// Else the CLI on PATH, in the runtime the log says the job ran in: the released CLI runs in Docker unless told.
	const runner = (jobId: string): PerstackRunner => startedRunner ?? runnerOfLog(loading.model, jobId);

	/** Where the job's checkpoints are: a job directory read, the working directory, or where the command ran. */
	const workspaceOf = (jobId: string): string | undefined => {
		for (const input of plan.inputs) {
			if (input.kind !== 'job') continue;
			const workspace = jobWorkspace(resolve(input.path), jobId);
			if (workspace !== undefined) return workspace;
		}

		if (existsSync(join(setup.cwd, 'perstack', 'jobs', jobId))) return setup.cwd;
		// The runtime writes them there as it runs: a run started by the viewer has its job in the working directory.
		return startedRunner ? setup.cwd : undefined;
	};

	/** A Claude Code session (its runs' dialect): `claude` carries it on (claudeDirectoryOf says where). */
	const isClaudeSession = (jobId: string): boolean => {
		const {model} = loading;
		return model.runs.get(model.jobs.get(jobId)?.runIds[0] ?? '')?.dialect === 'claude-code';
	};

	/** Where a Claude Code session ran, from the files read (its stream's init line, its transcript's lines). */
	const claudeDirectoryOf = (jobId: string): string => {
		const files = plan.inputs.flatMap(input => (input.kind === 'file' || input.kind === 'session' ? [input.path] : []));
		return sessionDirectory(files, jobId) ?? setup.cwd;
	};

	const whyNot = (jobId: string): string | undefined => {
		if (!loading.addCommand) return 'a replay runs no commands';
		if (loading.childRunning()) return 'a command is still running (K stops it)';
		if (isClaudeSession(jobId)) {
			const program = claudeRunner.program[0] ?? 'claude';
			const missing = whyNotRunnable(program, setup.searchPath);
			return missing === undefined ? undefined : `${program}: ${missing}${program.includes('/') ? '' : ' on PATH'}`;
		}

		const program = runner(jobId).program[0] ?? 'perstack';
		const missing = whyNotRunnable(program, setup.searchPath);
		if (missing !== undefined) return `${program}: ${missing}${program.includes('/') ? '' : ' on PATH'}`;
		if (workspaceOf(jobId) === undefined)
			return `perstack keeps this job in perstack/jobs/${jobId}, and there is none under ${setup.cwd}: run perscope from the job's workspace`;
		return undefined;
	};

	const run = (continuation: Continuation, report: (message: string) => void) => {
		const why = whyNot(continuation.jobId);
		const {addCommand} = loading;
		if (why !== undefined || !addCommand) {
			report(`cannot run it: ${why ?? 'a replay runs no commands'}`);
			return;
		}

		// Claude Code finds a session by the directory it runs in (its project): the one the session's lines name, when
		// it is here, else perscope's, as a person's shell would be.
		const cwd = isClaudeSession(continuation.jobId) ? claudeDirectoryOf(continuation.jobId) : workspaceOf(continuation.jobId);
		report(`${{answer: 'answering', resume: 'resuming', message: 'sending'}[continuation.kind]}: ${continuation.line}`);
		// A followed job directory gets the continuation's run events too, as the runtime writes them there.
		const followed = plan.follow && plan.inputs.some(input => input.kind === 'job' && jobWorkspace(resolve(input.path), continuation.jobId) !== undefined);
		const repeatsOfJob = followed ? continuation.jobId : undefined;
		const exit = addCommand({command: [...continuation.argv], label: continuation.line, cwd, repeatsOfJob}).then(
			added => {
				// Its lines are read again by the inspector as a command's are: from the viewer's copy of them.
				setup.raw.addPlan({
					inputs: [{kind: 'command', command: [...continuation.argv], label: added.state.label}],
					label: added.state.label,
					demo: false,
					follow: false,
					jobsRoot: undefined,
				});
				// What waited for ever when the input ended waits again: the job goes on.
				reopenInput(loading.model);
				setup.changed();
				return added.done.then(code => {
					// The input has ended again once nothing else is read (a followed file goes on).
					if (!loading.states.some(state => state.live)) endInput(loading.model, inputEndOf([added.state]));
					setup.onExit(code);
					setup.changed();
					return code;
				});
			},
			(error: unknown) => {
				report(`cannot run it: ${error instanceof Error ? error.message : String(error)}`);
				return 1;
			},
		);
		started.push(exit);
	};

	return {
		started,
		runner,
		claudeRunner,
		whyNot,
		run,
		stop: () => loading.terminateCommands(),
		copy(line) {
			back?.();
			const {stdout} = setup;
			stdout.write(clipboardSequence(line));
			back = showOnShellScreen(
				stdout,
				`perscope: the command (on the clipboard where the terminal allows OSC 52):\n\n${sanitizeLine(line)}\n\npress any key to go back to the viewer`,
			);
		},
		back(repaint) {
			const release = back;
			back = undefined;
			release?.();
			repaint();
		},
	};
}

/** The workspace of job `jobId` when `path` is its directory (`<workspace>/perstack/jobs/<jobId>`, or one run of it). */
function jobWorkspace(path: string, jobId: string): string | undefined {
	const jobDirectory = basename(dirname(path)) === 'runs' ? dirname(dirname(path)) : path;
	if (basename(jobDirectory) !== jobId) return undefined;
	const jobs = dirname(jobDirectory);
	if (basename(jobs) !== 'jobs' || basename(dirname(jobs)) !== 'perstack') return undefined;
	return dirname(dirname(jobs));
}
