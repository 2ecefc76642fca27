#!/usr/bin/env node
import {closeSync, openSync} from 'node:fs';
import {startInteractive} from '../app/interactive-start.js';
import {InputError, resolveInputs, type InputPlan} from '../input/inputs.js';
import {loadTuningFrom} from './environment.js';
import {otlpOptionsFrom} from './otlp-options.js';
import {prepareInkEnvironment} from './ink-environment.js';
import {parseCommandLine} from './parse-args.js';

/** argv → a plan, then the viewer or a headless writer runs it. Resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
	const commandLine = await parseCommandLine(argv);
	switch (commandLine.kind) {
		case 'help':
		case 'version': {
			process.stdout.write(commandLine.text);
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
	// `ps` and `top` show perscope, not node.
	process.title = 'perscope';
	let plan: InputPlan;
	try {
		plan = resolveInputs(request.paths, {
			stdinIsTTY: process.stdin.isTTY === true,
			follow: request.follow,
			// A command's name is looked up in PATH the way a shell would, before anything starts.
			command: request.command && {argv: request.command, searchPath: process.env['PATH'] ?? ''},
		});
	} catch (error) {
		await say(error instanceof Error ? error.message : String(error));
		return error instanceof InputError ? error.exitCode : 1;
	}

	const interactive = request.mode === undefined && process.stdout.isTTY === true;
	// The bundled demo is for a person at the viewer; a headless mode with nothing to read is a mistake.
	if (plan.demo && !interactive) {
		process.stderr.write('perscope: no input: give a file, pipe events on stdin, or a command after -- (see perscope --help)\n');
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

	const otlpRequest = otlpOptionsFrom(request.otlp, process.env);
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
	const fast = process.env['PERSCOPE_FAST'] !== '0';
	const tuning = loadTuningFrom(process.env);
	if (interactive) {
		return startInteractive(plan, {maxLineBytes, filter, replaySpeed, fast, dialect: request.dialect, tuning, prices, prepareInkEnvironment, otlp});
	}

	// Loaded only now: the interactive path must put its first screen up before the parsing code loads.
	const {runHeadless} = await import('../app/headless.js');
	return runHeadless(plan, {
		mode: request.mode ?? 'print',
		maxLineBytes,
		filter,
		replaySpeed,
		fast,
		dialect: request.dialect,
		tuning,
		prices,
		otlp,
		conversation: request.conversation,
	});
}

/**
 * One line on stderr. What it quotes comes from the command line or a file (a path, an option, a key) and may
 * hold escape sequences or bidi controls: shown inert, as event text is. The sanitiser loads only for a message.
 */
async function say(message: string): Promise<void> {
	const {sanitizeLine} = await import('../text/sanitize.js');
	process.stderr.write(`perscope: ${sanitizeLine(message)}\n`);
}

/** How long the process may linger once main has returned and nothing is left to do. */
const lingerAfterMainMs = 2000;

function assertNever(value: never): never {
	throw new Error(`unexpected command line: ${JSON.stringify(value)}`);
}

process.exitCode = await main(process.argv.slice(2));
// Everything is done and written. Should anything still hold the process open (a system call that does not
// return, a pipe a grandchild of `-- COMMAND` keeps open), the exit is not left to it: this timer does not keep
// the process alive itself, so it fires only when something else does.
setTimeout(() => process.exit(), lingerAfterMainMs).unref();
