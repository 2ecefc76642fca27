import {existsSync} from 'node:fs';
import meow from 'meow';
import type {HeadlessMode} from '../app/headless.js';
import {defaultMaxLineBytes} from '../parse/line-splitter.js';
import type {Filter} from '../query/filter.js';
import {parseReplaySpeed} from '../query/replay-speed.js';
import {help} from './help.js';
import type {OtlpFlags} from './otlp-options.js';

/** What the person asked for on the command line. */
export type CommandLine =
	| {kind: 'help'; text: string}
	| {kind: 'version'; text: string}
	/** Bad usage: one line saying what is wrong (exit code 2). */
	| {kind: 'usage-error'; message: string}
	| {kind: 'run'; request: RunRequest};

export type RunRequest = {
	paths: string[];
	/** Everything after the first `--`: a command to run and view, with its own arguments. */
	command: string[] | undefined;
	/** The output asked for; undefined leaves it to stdout: the viewer on a terminal, else `print`. */
	mode: HeadlessMode | undefined;
	follow: boolean;
	maxLineBytes: number;
	filter: Filter | undefined;
	replaySpeed: number | undefined;
	/** `--prices FILE`: a price table in place of the built-in one (read in main.ts). */
	pricesFile: string | undefined;
	/** `--otlp`, `--otlp-file`, `--otlp-content`, and the version to name the exporting instrumentation with. */
	otlp: OtlpFlags & {version: string};
	/** `--conversation RUN[@STEP]` (mode `conversation`): the run id or its prefix, and the step (the run's last when undefined). */
	conversation: {run: string; step: number | undefined} | undefined;
};

const flags = {
	print: {type: 'boolean', default: false},
	json: {type: 'boolean', default: false},
	summary: {type: 'boolean', default: false},
	maxLineBytes: {type: 'number', default: defaultMaxLineBytes},
	follow: {type: 'boolean', shortFlag: 'f', default: false},
	filter: {type: 'string', isMultiple: true},
	replay: {type: 'string'},
	prices: {type: 'string'},
	conversation: {type: 'string'},
	otlp: {type: 'string'},
	otlpFile: {type: 'string'},
	otlpContent: {type: 'boolean', default: false},
	help: {type: 'boolean', default: false},
	version: {type: 'boolean', default: false},
} as const;

/** The names meow reports the known flags under: their own and the short flag. */
const knownNames = new Set([...Object.keys(flags), 'f']);

/** Reads argv (without `node` and the script). Loads the filter code only when there is a filter. */
export async function parseCommandLine(argv: string[]): Promise<CommandLine> {
	// Everything after the first `--` is the command, options and all. yargs-parser stops there too, but
	// would put the command's words among the file names.
	const separator = argv.indexOf('--');
	const command = separator === -1 ? undefined : argv.slice(separator + 1);
	const {args, wordAfterReplay} = normaliseOptions(separator === -1 ? argv : argv.slice(0, separator));
	let cli;
	try {
		cli = meow(help, {
			importMeta: import.meta,
			argv: args,
			// Unknown flags are reported below, in one line that points to --help, rather than by meow.
			allowUnknownFlags: true,
			// --help and --version are answered whatever else is given, not only on their own.
			autoHelp: false,
			autoVersion: false,
			flags,
		});
	} catch (error) {
		// meow throws for a flag given twice that takes one value.
		return usageError(error instanceof Error ? error.message.replace(/\.$/, '') : String(error));
	}

	const unknown = unknownOptions(Object.keys(cli.unnormalizedFlags));
	if (unknown.length > 0) return usageError(`unknown option${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}`);
	if (cli.flags.help) return {kind: 'help', text: cli.help};
	if (cli.flags.version) return {kind: 'version', text: `${cli.pkg.version ?? 'unknown'}\n`};

	const {maxLineBytes, replay, follow} = cli.flags;
	if (!Number.isInteger(maxLineBytes) || maxLineBytes < 1) return usageError('--max-line-bytes must be a positive whole number');

	const filterText = (cli.flags.filter ?? []).join(' ');
	let filter: Filter | undefined;
	// The filter code (and the text-width tables it brings) is loaded only for a filter.
	if (filterText.trim() !== '') {
		const {parseFilter} = await import('../query/filter.js');
		const parsed = parseFilter(filterText);
		if (!parsed.ok) return usageError(`--filter: ${parsed.error}`);
		filter = parsed.filter;
	}

	// `--replay 5` plays a file named 5 at real time; with no such file, the speed was surely meant.
	if (wordAfterReplay !== undefined && parseReplaySpeed(wordAfterReplay) !== undefined && !existsSync(wordAfterReplay)) {
		return usageError(`there is no file named ${wordAfterReplay}: a replay speed goes after "=", as in --replay=${wordAfterReplay}`);
	}

	const replaySpeed = replay === undefined ? undefined : parseReplaySpeed(replay);
	if (replay !== undefined && replaySpeed === undefined) return usageError('--replay=SPEED needs a positive number, like --replay=10');
	if (replaySpeed !== undefined && (follow || command !== undefined)) {
		return usageError(`--replay plays saved logs; it cannot be combined with ${follow ? '--follow' : 'a command'}`);
	}

	const {print, json, summary, prices} = cli.flags;
	if (prices !== undefined && prices.trim() === '') return usageError('--prices needs a file, as in --prices prices.json');
	const conversation = cli.flags.conversation === undefined ? undefined : parseConversationSpec(cli.flags.conversation);
	if (typeof conversation === 'string') return usageError(conversation);
	if (conversation) {
		const other = [print && '--print', json && '--json', summary && '--summary', follow && '--follow', replaySpeed !== undefined && '--replay', filter && '--filter'].filter(flag => typeof flag === 'string');
		if (other.length > 0) return usageError(`--conversation prints one step's conversation; it cannot be combined with ${other.join(', ')}`);
	}

	const mode: HeadlessMode | undefined = conversation ? 'conversation' : summary ? (json ? 'summary-json' : 'summary') : json ? 'json' : print ? 'print' : undefined;
	const {otlp, otlpFile, otlpContent} = cli.flags;
	if (otlpFile === '') return usageError('--otlp-file needs a file name');
	const otlpFlags = {url: otlp, file: otlpFile, content: otlpContent, version: cli.pkg.version ?? 'unknown'};
	return {kind: 'run', request: {paths: cli.input, command, mode, follow, maxLineBytes, filter, replaySpeed, pricesFile: prices, otlp: otlpFlags, conversation}};
}

/** `RUN` or `RUN@STEP`; a message saying what is wrong otherwise. */
export function parseConversationSpec(spec: string): {run: string; step: number | undefined} | string {
	const at = spec.lastIndexOf('@');
	const run = (at === -1 ? spec : spec.slice(0, at)).trim();
	const stepText = at === -1 ? undefined : spec.slice(at + 1).trim();
	if (run === '') return '--conversation needs a run id or the start of one, as in --conversation 3f9a or --conversation 3f9a@12';
	if (stepText === undefined) return {run, step: undefined};
	if (!/^\d+$/.test(stepText)) return `--conversation: the step after "@" must be a whole number, as in ${run}@12`;
	return {run, step: Number(stepText)};
}

function usageError(message: string): CommandLine {
	return {kind: 'usage-error', message};
}

/** The flags meow found that perscope does not have, as they would be typed (meow camelCases the long ones). */
function unknownOptions(names: string[]): string[] {
	const unknown = names.filter(name => !knownNames.has(name));
	return [...new Set(unknown.map(name => (name.length === 1 ? `-${name}` : `--${name.replaceAll(/[A-Z]/g, letter => `-${letter.toLowerCase()}`)}`)))];
}

/**
 * Two forms are rewritten before meow sees them, each into its `=` form, which meow reads as it is. meow
 * passes no yargs-parser configuration through (a flag has a type, a short flag, aliases, a default,
 * isMultiple, choices), and neither form can be said with what it does take:
 * - `--replay` alone means real time. yargs-parser has no flag with an optional value: a string flag takes
 *   the next word, so `--replay run.ndjson` would play nothing at the speed "run.ndjson".
 * - `--filter X` takes X even when it starts with `-` (`--filter -type:todo`). yargs-parser takes such a
 *   word as a value only under its `unknown-options-as-args` setting, which meow turns on only with
 *   `allowUnknownFlags: false`; then meow reports unknown flags itself (two lines, no pointer to --help)
 *   and exits the process from inside the parser.
 * - `--otlp` takes a URL only when the next word is one (`--otlp run.ndjson` exports to the environment's
 *   endpoint and reads run.ndjson); alone it is `--otlp=`, the environment's endpoint.
 */
function normaliseOptions(args: string[]): {args: string[]; wordAfterReplay: string | undefined} {
	const out: string[] = [];
	let wordAfterReplay: string | undefined;
	for (let i = 0; i < args.length; i++) {
		const arg = args[i]!;
		if (arg === '--replay') {
			out.push('--replay=1');
			wordAfterReplay ??= args[i + 1];
		} else if (arg === '--otlp') {
			const next = args[i + 1];
			if (next !== undefined && /^https?:\/\//i.test(next)) {
				out.push(`--otlp=${next}`);
				i++;
			} else {
				out.push('--otlp=');
			}
		} else if (arg === '--filter' && i + 1 < args.length) {
			out.push(`--filter=${args[++i]!}`);
		} else {
			out.push(arg);
		}
	}

	return {args: out, wordAfterReplay};
}
