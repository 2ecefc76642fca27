import type {Writable} from 'node:stream';
import {closeSync, openSync} from 'node:fs';
import {startInteractive} from '../app/interactive-start.js';
import type {RunOptions} from '../app/run-options.js';
import {InputError, resolveInputs, type InputPlan} from '../input/inputs.js';
import {sessionFilesIn} from '../input/claude-sessions.js';
import {codexSessionsIn} from '../input/codex-sessions.js';
import {geminiChatsIn} from '../input/gemini-chats.js';
import {projectFolderName} from '../parse/dialects/claude-code/session-files.js';
import {homedir} from 'node:os';
import {dirname, join} from 'node:path';
import {otlpOptionsFrom} from './otlp-options.js';
import {prepareInkEnvironment} from './ink-environment.js';
import {parseCommandLine} from './parse-args.js';
import {isTerminal, type StdStreams} from '../app/streams.js';
import type {LoadTuning} from '../load/tuning.js';

/**
 * What a run of the CLI is given besides its arguments: the process's streams and environment (main.ts), or a
 * test's. `tuning` is the loaders' settings for tests and measurements (load/tuning.ts): the product (main.ts)
 * gives none, and no environment variable sets them; a test gives them here, or runs the CLI through
 * test/helpers/tuned-perscope.mjs.
 */
export type CliContext = {streams: StdStreams; env: NodeJS.ProcessEnv; tuning?: LoadTuning | undefined};

/** argv → a plan, then the viewer or a headless writer runs it. Resolves with the exit code. */
export async function runCli(argv: string[], {streams, env, tuning = {}}: CliContext): Promise<number> {
	const say = (message: string) => sayOn(streams.stderr, message);
	const commandLine = await parseCommandLine(argv);
	switch (commandLine.kind) {
		case 'help':
		case 'version': {
			streams.stdout.write(commandLine.text);
			return 0;
		}

		case 'usage-error': {
			await say(`${commandLine.message} (see perscope --help)`);
			return 2;
		}

		case 'run': {
			break;
		}

		default: {
			return assertNever(commandLine);
		}
	}

	const {request} = commandLine;
	let paths = request.paths;
	if (request.claudeSessions) {
		const folder = claudeSessionsFolder(env);
		if (sessionFilesIn(folder).length === 0) {
			// Every project's sessions are one folder up, for a person who ran Claude Code elsewhere.
			await say(`no Claude Code sessions of ${process.cwd()}: none in ${folder} (every project's: perscope ${dirname(folder)})`);
			return 1;
		}

		paths = [folder];
	}

	// `--codex`: Codex keeps every session in one folder; those whose first line says they ran here are listed.
	const codexSessions = join(env['CODEX_HOME'] || join(env['HOME'] || homedir(), '.codex'), 'sessions');
	if (request.codexSessions) {
		if (codexSessionsIn(codexSessions, process.cwd()).length === 0) {
			await say(`no Codex sessions of ${process.cwd()}: none in ${codexSessions} (every directory's: perscope ${codexSessions})`);
			return 1;
		}

		paths = [codexSessions];
	}

	// `--gemini`: Gemini CLI keeps each project's chats in a folder of its own; those whose header says they ran here.
	const geminiFolder = join(env['GEMINI_CLI_HOME'] || env['HOME'] || homedir(), '.gemini');
	if (request.geminiSessions) {
		if (geminiChatsIn(geminiFolder, process.cwd()).length === 0) {
			await say(`no Gemini CLI sessions of ${process.cwd()}: none in ${join(geminiFolder, 'tmp')} (every directory's: perscope ${join(geminiFolder, 'tmp')})`);
			return 1;
		}

		paths = [geminiFolder];
	}

	let plan: InputPlan;
	try {
		plan = resolveInputs(paths, {
			stdinIsTTY: isTerminal(streams.stdin),
			follow: request.follow,
			// A command's name is looked up in PATH the way a shell would, before anything starts.
			command: request.command && {argv: request.command, searchPath: env['PATH'] ?? ''},
		});
	} catch (error) {
		await say(error instanceof Error ? error.message : String(error));
		return error instanceof InputError ? error.exitCode : 1;
	}

	if (request.codexSessions || request.geminiSessions) plan = {...plan, jobsWhere: process.cwd()};

	const interactive = request.mode === undefined && isTerminal(streams.stdout);
	// The bundled demo is for a person at the viewer; a headless mode with nothing to read is a mistake.
	if (plan.demo && !interactive) {
		streams.stderr.write('perscope: no input: give a file, pipe events on stdin, or a command after -- (see perscope --help)\n');
		return 2;
	}

	const {maxLineBytes, filter} = request;
	// The demo plays live, at the pace it was recorded, as a run would arrive.
	const replaySpeed = request.replaySpeed ?? (plan.demo ? 1 : undefined);
	let prices;
	if (request.pricesFile !== undefined) {
		// Loaded only for a price file: it brings zod.
		const {readPriceFile, PriceFileError} = await import('./prices-file.js');
		try {
			prices = readPriceFile(request.pricesFile);
		} catch (error) {
			if (!(error instanceof PriceFileError)) throw error;
			await say(`${error.message}${error.exitCode === 2 ? ' (see perscope --help)' : ''}`);
			return error.exitCode;
		}
	}

	const otlpRequest = otlpOptionsFrom(request.otlp, env);
	if (!otlpRequest.ok) {
		await say(`${otlpRequest.error} (see perscope --help)`);
		return 2;
	}

	const otlp = otlpRequest.options;
	// A file that cannot be written is said now, in one line, before any screen is up or any input read.
	if (otlp?.file !== undefined) {
		try {
			closeSync(openSync(otlp.file, 'w'));
		} catch (error) {
			await say(`--otlp-file: cannot write ${otlp.file}: ${error instanceof Error ? error.message : String(error)}`);
			return 1;
		}
	}

	// PERSCOPE_FAST=0 reads every line the plain way and validates it with its schema: the reference the fast
	// ways are compared with (test/perf, npm run bench).
	const fast = env['PERSCOPE_FAST'] !== '0';
	// What every mode is given.
	const options: RunOptions = {
		maxLineBytes,
		filter,
		replaySpeed,
		fast,
		dialect: request.dialect,
		tuning,
		prices,
		otlp,
		claudeProjects: join(claudeConfigFolder(env), 'projects'),
		codexSessions,
		geminiFolder,
		listingCache: join(env['XDG_CACHE_HOME'] || join(env['HOME'] || homedir(), '.cache'), 'perscope', 'listings.json'),
	};
	if (interactive) return startInteractive(plan, {...options, prepareInkEnvironment});

	// Loaded only now: the interactive path must put its first screen up before the parsing code loads.
	const {runHeadless} = await import('../app/headless.js');
	return runHeadless(plan, {...options, mode: request.mode ?? 'print', conversation: request.conversation}, streams);
}

/**
 * One line on stderr. What it quotes comes from the command line or a file (a path, an option, a key) and may
 * hold escape sequences or bidi controls: shown inert, as event text is. The sanitiser loads only for a message.
 */
async function sayOn(stderr: Writable, message: string): Promise<void> {
	const {sanitizeLine} = await import('../text/sanitize.js');
	stderr.write(`perscope: ${sanitizeLine(message)}\n`);
}

function assertNever(value: never): never {
	throw new Error(`unexpected command line: ${JSON.stringify(value)}`);
}

/** Where Claude Code keeps the sessions of the working directory: `$CLAUDE_CONFIG_DIR` (else `~/.claude`), `projects/<folder>`. */
function claudeSessionsFolder(env: NodeJS.ProcessEnv): string {
	return join(claudeConfigFolder(env), 'projects', projectFolderName(process.cwd()));
}

/** Where Claude Code keeps its settings and sessions: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
function claudeConfigFolder(env: NodeJS.ProcessEnv): string {
	return env['CLAUDE_CONFIG_DIR'] || join(env['HOME'] || homedir(), '.claude');
}
