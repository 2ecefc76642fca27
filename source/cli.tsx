#!/usr/bin/env node
import meow from 'meow';
import {resolveInputs, type InputPlan} from './sources/inputs.js';
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
    --max-line-bytes N      lines longer than N bytes are skipped with a diagnostic (default ${defaultMaxLineBytes})

  Other
    --help                  show this help
    --version               show the version

  Exit codes
    0 success (bad lines are reported, not fatal) · 1 an input cannot be read · 2 bad usage
`;

export async function main(argv: string[]): Promise<number> {
	const cli = meow(help, {
		importMeta: import.meta,
		argv,
		// We report unknown flags ourselves, with the usage text, rather than meow's bare "Unknown flag".
		allowUnknownFlags: true,
		flags: {
			print: {type: 'boolean', default: false},
			json: {type: 'boolean', default: false},
			summary: {type: 'boolean', default: false},
			maxLineBytes: {type: 'number', default: defaultMaxLineBytes},
		},
	});

	const {flags} = cli;
	const known = new Set(['print', 'json', 'summary', 'maxLineBytes', 'max-line-bytes', 'help', 'version']);
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
		plan = resolveInputs(cli.input, {stdinIsTTY: process.stdin.isTTY === true});
	} catch (error) {
		process.stderr.write(`perscope: ${error instanceof Error ? error.message : String(error)}\n`);
		return 1;
	}

	const headless = flags.print || flags.json || flags.summary || process.stdout.isTTY !== true;
	if (!headless) return runInteractive(plan, flags.maxLineBytes);
	const mode: HeadlessMode = flags.summary ? (flags.json ? 'summary-json' : 'summary') : flags.json ? 'json' : 'print';
	return runHeadless(plan, {mode, maxLineBytes: flags.maxLineBytes});
}

/**
 * Ink decides once, when it is first imported, whether it runs in CI; in CI it draws nothing until exit.
 * A person at a real terminal wants live frames even if their shell has CI set, so Ink is imported with
 * CI hidden, and the variables are put back for any child the viewer starts.
 */
async function runInteractive(plan: InputPlan, maxLineBytes: number): Promise<number> {
	const saved = {CI: process.env['CI'], CONTINUOUS_INTEGRATION: process.env['CONTINUOUS_INTEGRATION']};
	delete process.env['CI'];
	delete process.env['CONTINUOUS_INTEGRATION'];
	const {runApp} = await import('./views/run-app.js');
	for (const [key, value] of Object.entries(saved)) if (value !== undefined) process.env[key] = value;
	return runApp(plan, {maxLineBytes});
}

process.exitCode = await main(process.argv.slice(2));
