#!/usr/bin/env node
import type {Filter} from '../query/filter.js';
import {InputError, resolveInputs, type InputPlan} from '../input/inputs.js';
import type {HeadlessMode} from '../app/headless.js';
// Imported with the CLI rather than when the viewer starts: it is small, the headless modes load it too
// (through parallel-file.ts), and the viewer's load worker then starts ~6 ms sooner.
import {startEarlyLoad} from '../load/early-load.js';
import {defaultMaxLineBytes} from '../parse/line-splitter.js';
import {defaultMaxGapMs, parseReplaySpeed} from '../query/replay-speed.js';

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

  Find
    --filter EXPR           only matching activities, in the viewer, --print and --json (--summary is never
                            filtered; --print and --json count the hidden ones on stderr). Every term must hold:
                              type:exec,readTextFile   activity type (any of)
                              expert:KEY               expert key (any of a comma list)
                              run:PREFIX               run id prefix
                              errors                   errors, and tool calls that returned one
                              step:7  step:10-20       step number or range (step:10- and step:-20 too)
                              vitest  "two words"      free text: paths, commands, queries, results, reasoning
                            -term negates (--filter -type:todo). Repeat --filter to add terms
    --replay[=SPEED]        play saved logs with their original timing, SPEED times as fast (default 1,
                            e.g. --replay=10); a pause over ${defaultMaxGapMs / 1000} s in the log is cut to ${defaultMaxGapMs / 1000} s / SPEED.
                            Not with --follow or a command; --summary ignores it

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
	const args = normaliseOptions(separator === -1 ? argv : argv.slice(0, separator));
	const parsed = plainArgs(args) ?? (await parseWithMeow(args));
	if (parsed.unknown.length > 0) {
		process.stderr.write(`perscope: unknown option ${parsed.unknown.map(name => (name.length === 1 ? `-${name}` : `--${name}`)).join(', ')}\n${help}`);
		return 2;
	}

	const {flags} = parsed;
	if (!Number.isInteger(flags.maxLineBytes) || flags.maxLineBytes < 1) {
		process.stderr.write(`perscope: --max-line-bytes must be a positive whole number\n${help}`);
		return 2;
	}

	const filterText = (flags.filter ?? []).join(' ');
	let filter: Filter | undefined;
	// The filter code (and the text-width tables it brings) is loaded only for a filter.
	if (filterText !== '') {
		const {parseFilter} = await import('../query/filter.js');
		const parsedFilter = parseFilter(filterText);
		if (!parsedFilter.ok) {
			process.stderr.write(`perscope: --filter: ${parsedFilter.error}\n${help}`);
			return 2;
		}

		filter = filterText.trim() === '' ? undefined : parsedFilter.filter;
	}

	const replaySpeed = flags.replay === undefined ? undefined : parseReplaySpeed(flags.replay);
	if (flags.replay !== undefined && replaySpeed === undefined) {
		process.stderr.write(`perscope: --replay=SPEED needs a positive number, like --replay=10\n${help}`);
		return 2;
	}

	if (replaySpeed !== undefined && (flags.follow || command !== undefined)) {
		process.stderr.write(`perscope: --replay plays saved logs; it cannot be combined with ${flags.follow ? '--follow' : 'a command'}\n${help}`);
		return 2;
	}

	let plan: InputPlan;
	try {
		plan = resolveInputs(parsed.input, {stdinIsTTY: process.stdin.isTTY === true, follow: flags.follow, command});
	} catch (error) {
		process.stderr.write(`perscope: ${error instanceof Error ? error.message : String(error)}\n`);
		return error instanceof InputError ? error.exitCode : 1;
	}

	// PERSCOPE_FAST=0 reads every line the plain way and validates it with its schema: the reference the fast
	// ways are compared with (test/perf, npm run bench).
	const fast = process.env['PERSCOPE_FAST'] !== '0';
	const headless = flags.print || flags.json || flags.summary || process.stdout.isTTY !== true;
	if (!headless) return runInteractive(plan, {maxLineBytes: flags.maxLineBytes, filter, replaySpeed, fast});
	const mode: HeadlessMode = flags.summary ? (flags.json ? 'summary-json' : 'summary') : flags.json ? 'json' : 'print';
	// Loaded only now: the interactive path must put its first screen up before the parsing code loads.
	const {runHeadless} = await import('../app/headless.js');
	return runHeadless(plan, {mode, maxLineBytes: flags.maxLineBytes, filter, replaySpeed, fast});
}

type Flags = {
	print: boolean;
	json: boolean;
	summary: boolean;
	maxLineBytes: number;
	follow: boolean;
	filter: string[] | undefined;
	replay: string | undefined;
};

type ParsedArgs = {flags: Flags; input: string[]; unknown: string[]};

const plainFlags = new Set(['--print', '--json', '--summary']);

/**
 * What meow would make of arguments that are only `--print`, `--json`, `--summary` and file names, which is
 * how scripts call perscope: loading meow takes longer than reading a small log. Anything else is meow's.
 */
function plainArgs(args: string[]): ParsedArgs | undefined {
	const input: string[] = [];
	const seen = new Set<string>();
	for (const arg of args) {
		if (plainFlags.has(arg)) seen.add(arg);
		else if (arg.startsWith('-')) return undefined;
		else input.push(arg);
	}

	// meow names the process after the package's command.
	process.title = 'perscope';
	return {
		flags: {
			print: seen.has('--print'),
			json: seen.has('--json'),
			summary: seen.has('--summary'),
			maxLineBytes: defaultMaxLineBytes,
			follow: false,
			filter: [],
			replay: undefined,
		},
		input,
		unknown: [],
	};
}

async function parseWithMeow(args: string[]): Promise<ParsedArgs> {
	const {default: meow} = await import('meow');
	const cli = meow(help, {
		importMeta: import.meta,
		argv: args,
		// We report unknown flags ourselves, with the usage text, rather than meow's bare "Unknown flag".
		allowUnknownFlags: true,
		flags: {
			print: {type: 'boolean', default: false},
			json: {type: 'boolean', default: false},
			summary: {type: 'boolean', default: false},
			maxLineBytes: {type: 'number', default: defaultMaxLineBytes},
			follow: {type: 'boolean', shortFlag: 'f', default: false},
			filter: {type: 'string', isMultiple: true},
			replay: {type: 'string'},
		},
	});
	const known = new Set(['print', 'json', 'summary', 'maxLineBytes', 'max-line-bytes', 'follow', 'f', 'filter', 'replay', 'help', 'version']);
	return {flags: cli.flags, input: cli.input, unknown: Object.keys(cli.unnormalizedFlags).filter(name => !known.has(name))};
}

/**
 * `--replay` alone means real time (as a string flag it would take the next file name for its speed), and
 * `--filter` always takes the next word, even one that starts with `-` (`--filter -type:todo`).
 */
function normaliseOptions(args: string[]): string[] {
	const out: string[] = [];
	for (let i = 0; i < args.length; i++) {
		const arg = args[i]!;
		if (arg === '--replay') out.push('--replay=1');
		else if (arg === '--filter' && i + 1 < args.length) out.push(`--filter=${args[++i]!}`);
		else out.push(arg);
	}

	return out;
}

/**
 * Ink and chalk decide once, when first imported, whether they run in CI (then Ink draws nothing until
 * exit) and whether to colour. A person at a real terminal wants live frames even if their shell has CI
 * set, and chalk ignores NO_COLOR: so Ink is imported with CI hidden and, under NO_COLOR, FORCE_COLOR=0.
 * React picks its build the same way: without NODE_ENV=production it loads the development build, which
 * checks and records so much that drawing costs several times more CPU (a shell often has NODE_ENV unset
 * or set to development). The variables are put back afterwards for any child the viewer starts.
 */
async function runInteractive(plan: InputPlan, options: {maxLineBytes: number; filter: Filter | undefined; replaySpeed: number | undefined; fast: boolean}): Promise<number> {
	// A worker loads a large file while Ink loads (sources/load-in-worker.ts): start it before anything else.
	if (options.replaySpeed === undefined && options.fast) startEarlyLoad(plan, options.maxLineBytes);
	const names = ['CI', 'CONTINUOUS_INTEGRATION', 'FORCE_COLOR', 'NODE_ENV'] as const;
	const saved = names.map(name => [name, process.env[name]] as const);
	process.env['NODE_ENV'] = 'production';
	delete process.env['CI'];
	delete process.env['CONTINUOUS_INTEGRATION'];
	if (process.env['NO_COLOR'] && !('FORCE_COLOR' in process.env)) process.env['FORCE_COLOR'] = '0';
	// Loading Ink and React takes longer than reading the first megabytes of a log: put the first screen up
	// before importing them, so the person sees where they are at once, whatever the machine's load.
	const {enterFullScreen} = await import('../tui/terminal.js');
	const {sanitizeLine} = await import('../present/sanitize.js');
	const restoreScreen = enterFullScreen(process.stdout);
	process.stdout.write(`perscope · ${sanitizeLine(plan.label)} · starting…`);
	const {runApp} = await import('../app/interactive.js');
	const restoreEnv = () => {
		for (const [name, value] of saved) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
	};

	return runApp(plan, {...options, restoreScreen, onViewsLoaded: restoreEnv});
}

process.exitCode = await main(process.argv.slice(2));
