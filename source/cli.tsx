#!/usr/bin/env node
import meow from 'meow';
import {InputError, resolveInputs, type InputPlan} from './sources/inputs.js';
import {runHeadless, type HeadlessMode} from './output/headless.js';
import {defaultMaxLineBytes} from './sources/line-splitter.js';

const help = `
  Usage
    $ perscope [options] [FILE…]          view saved logs (.ndjson, .gz)
    $ perstack run … | perscope [options]  view events piped on stdin
    $ perscope                             (no input) open the bundled demo log

  Output (the interactive viewer is used when stdout is a terminal)
    --print                 readable transcript, one activity per line (default when stdout is not a terminal)
    --json                  every activity as one JSON object per line, in arrival order
    --summary               a table of jobs and runs: status, steps, tokens, duration, error
    --summary --json        the same as one JSON document

  Input
    FILE…                   NDJSON event logs, plain or gzip-compressed (told by content, not name); - is stdin
    perstack/jobs/ID        a persisted Perstack job: its runs/*/event-*.json files, in event order
    perstack                list the persisted jobs, newest first (perstack/jobs works too)
    -- COMMAND [ARGS…]      run COMMAND (no shell) and view its stdout live; its stderr is kept apart.
                            perscope then exits with the command's code (128+N if signal N killed it,
                            127 if it cannot run); Ctrl-C interrupts the command first
    -f, --follow            keep reading files and job directories as they grow, like tail -F (truncated
                            or rotated files are read again; missing ones are waited for); Ctrl-C stops
    --max-line-bytes N      lines longer than N bytes are skipped with a diagnostic (default ${defaultMaxLineBytes})

  Other
    --help                  show this help
    --version               show the version

  Exit codes
    0 success (bad lines are reported, not fatal) · 1 an input cannot be read · 2 bad usage
`;

export async function main(argv: string[]): Promise<number> {
	// Everything after the first `--` is the command to run, with its own options; meow never sees it.
	const separator = argv.indexOf('--');
	const command = separator === -1 ? undefined : argv.slice(separator + 1);
	const cli = meow(help, {
		importMeta: import.meta,
		argv: separator === -1 ? argv : argv.slice(0, separator),
		// We report unknown flags ourselves, with the usage text, rather than meow's bare "Unknown flag".
		allowUnknownFlags: true,
		flags: {
			print: {type: 'boolean', default: false},
			json: {type: 'boolean', default: false},
			summary: {type: 'boolean', default: false},
			maxLineBytes: {type: 'number', default: defaultMaxLineBytes},
			follow: {type: 'boolean', shortFlag: 'f', default: false},
		},
	});

	const {flags} = cli;
	const known = new Set(['print', 'json', 'summary', 'maxLineBytes', 'max-line-bytes', 'follow', 'f', 'help', 'version']);
	const unknown = Object.keys(cli.unnormalizedFlags).filter(name => !known.has(name));
	if (unknown.length > 0) {
		process.stderr.write(`perscope: unknown option ${unknown.map(name => (name.length === 1 ? `-${name}` : `--${name}`)).join(', ')}\n${help}`);
		return 2;
	}

	if (!Number.isInteger(flags.maxLineBytes) || flags.maxLineBytes < 1) {
		process.stderr.write(`perscope: --max-line-bytes must be a positive whole number\n${help}`);
		return 2;
	}

	let plan: InputPlan;
	try {
		plan = resolveInputs(cli.input, {stdinIsTTY: process.stdin.isTTY === true, follow: flags.follow, command});
	} catch (error) {
		process.stderr.write(`perscope: ${error instanceof Error ? error.message : String(error)}\n`);
		return error instanceof InputError ? error.exitCode : 1;
	}

	const headless = flags.print || flags.json || flags.summary || process.stdout.isTTY !== true;
	if (!headless) return runInteractive(plan, flags.maxLineBytes);
	const mode: HeadlessMode = flags.summary ? (flags.json ? 'summary-json' : 'summary') : flags.json ? 'json' : 'print';
	return runHeadless(plan, {mode, maxLineBytes: flags.maxLineBytes});
}

/**
 * Ink and chalk decide once, when first imported, whether they run in CI (then Ink draws nothing until
 * exit) and whether to colour. A person at a real terminal wants live frames even if their shell has CI
 * set, and chalk ignores NO_COLOR: so Ink is imported with CI hidden and, under NO_COLOR, FORCE_COLOR=0.
 * The variables are put back afterwards for any child the viewer starts.
 */
async function runInteractive(plan: InputPlan, maxLineBytes: number): Promise<number> {
	const names = ['CI', 'CONTINUOUS_INTEGRATION', 'FORCE_COLOR'] as const;
	const saved = names.map(name => [name, process.env[name]] as const);
	delete process.env['CI'];
	delete process.env['CONTINUOUS_INTEGRATION'];
	if (process.env['NO_COLOR'] && !('FORCE_COLOR' in process.env)) process.env['FORCE_COLOR'] = '0';
	const {runApp} = await import('./views/run-app.js');
	for (const [name, value] of saved) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}

	return runApp(plan, {maxLineBytes});
}

process.exitCode = await main(process.argv.slice(2));
