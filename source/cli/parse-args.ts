import {existsSync, readFileSync} from 'node:fs';
import {parseArgs, type ParseArgsConfig} from 'node:util';
import type {HeadlessMode} from '../app/headless.js';
import type {Dialect} from '../model/events.js';
import {defaultMaxLineBytes} from '../parse/line-splitter.js';
import type {Filter} from '../query/filter.js';
import {parseReplaySpeed} from '../query/replay-speed.js';
import {helpText} from './help.js';
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
	/** `--dialect NAME`: every line is read as NAME's; undefined tells each stream's dialect from its first lines. */
	dialect: Dialect | undefined;
	/** `--claude`: the Claude Code sessions of the working directory (run-cli.ts finds their folder). */
	claudeSessions: boolean;
	/** `--codex`: the Codex sessions that ran in the working directory (run-cli.ts finds their folder). */
	codexSessions: boolean;
	/** `--gemini`: the Gemini CLI sessions that ran in the working directory (run-cli.ts finds their folder). */
	geminiSessions: boolean;
};

/*
 * Options are read with node's own parseArgs (node:util), in its lenient mode and from its tokens, so that every
 * mistake is said here in one line that points to --help: an unknown option, a value missing or given to an
 * option that takes none, a single-valued option given twice. (meow did this before, and cost every start
 * ~30 ms of loading; docs/performance.md.)
 */
const options = {
	print: {type: 'boolean'},
	json: {type: 'boolean'},
	summary: {type: 'boolean'},
	'max-line-bytes': {type: 'string'},
	follow: {type: 'boolean', short: 'f'},
	filter: {type: 'string', multiple: true},
	replay: {type: 'string'},
	prices: {type: 'string'},
	conversation: {type: 'string'},
	dialect: {type: 'string'},
	claude: {type: 'boolean'},
	codex: {type: 'boolean'},
	gemini: {type: 'boolean'},
	otlp: {type: 'string'},
	'otlp-file': {type: 'string'},
	'otlp-content': {type: 'boolean'},
	help: {type: 'boolean', short: 'h'},
	version: {type: 'boolean', short: 'v'},
} as const satisfies ParseArgsConfig['options'];

type OptionName = keyof typeof options;
type Values = {
	[Name in OptionName]?: (typeof options)[Name] extends {type: 'boolean'} ? boolean : (typeof options)[Name] extends {multiple: true} ? string[] : string;
};

/** A value separate from its option that starts with `-` is taken for the option only by these. */
const takesDashWords: ReadonlySet<OptionName> = new Set<OptionName>(['filter']);

/** Reads argv (without `node` and the script). Loads the filter code only when there is a filter. */
export async function parseCommandLine(argv: string[]): Promise<CommandLine> {
	// Everything after the first `--` is the command, options and all; parseArgs would put it among the files.
	const separator = argv.indexOf('--');
	const command = separator === -1 ? undefined : argv.slice(separator + 1);
	const before = separator === -1 ? argv : argv.slice(0, separator);
	// --help and --version win over anything else given with them, mistakes included.
	if (before.includes('--help') || before.includes('-h')) return {kind: 'help', text: helpText(packageJson().description)};
	if (before.includes('--version') || before.includes('-v')) return {kind: 'version', text: `${packageJson().version}\n`};
	const {args, wordAfterReplay} = normaliseOptions(before);
	const read = readOptions(args);
	if (typeof read === 'string') return usageError(read);
	const {values, paths} = read;
	if (values.help) return {kind: 'help', text: helpText(packageJson().description)};
	if (values.version) return {kind: 'version', text: `${packageJson().version}\n`};

	const maxLineBytes = values['max-line-bytes'] === undefined ? defaultMaxLineBytes : Number(values['max-line-bytes']);
	if (!Number.isInteger(maxLineBytes) || maxLineBytes < 1) return usageError('--max-line-bytes must be a positive whole number');
	const {replay, prices, print = false, json = false, summary = false, follow = false} = values;

	const filterText = (values.filter ?? []).join(' ');
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

	if (prices !== undefined && prices.trim() === '') return usageError('--prices needs a file, as in --prices prices.json');
	const dialect = values.dialect === undefined ? undefined : await dialectNamed(values.dialect);
	if (typeof dialect === 'object') return usageError(dialect.error);
	const conversation = values.conversation === undefined ? undefined : parseConversationSpec(values.conversation);
	if (typeof conversation === 'string') return usageError(conversation);
	if (conversation) {
		const other = [
			print && '--print',
			json && '--json',
			summary && '--summary',
			follow && '--follow',
			replaySpeed !== undefined && '--replay',
			filter && '--filter',
		].filter(flag => typeof flag === 'string');
		if (other.length > 0) return usageError(`--conversation prints one step's conversation; it cannot be combined with ${other.join(', ')}`);
	}

	// One output at a time: --summary --json is one output, the JSON form of the summary.
	const outputs = [print && '--print', json && !summary && '--json', summary && (json ? '--summary --json' : '--summary')].filter(
		flag => typeof flag === 'string',
	);
	if (outputs.length > 1) return usageError(`${outputs.join(' and ')} do not go together: choose one output`);

	const mode: HeadlessMode | undefined = conversation
		? 'conversation'
		: summary
			? json
				? 'summary-json'
				: 'summary'
			: json
				? 'json'
				: print
					? 'print'
					: undefined;
	const claudeSessions = values.claude ?? false;
	if (claudeSessions && (paths.length > 0 || command !== undefined))
		return usageError(`--claude opens the Claude Code sessions of this directory; it cannot be combined with ${command !== undefined ? 'a command' : 'files'}`);
	const codexSessions = values.codex ?? false;
	if (codexSessions && (claudeSessions || paths.length > 0 || command !== undefined))
		return usageError(
			`--codex opens the Codex sessions of this directory; it cannot be combined with ${claudeSessions ? '--claude' : command !== undefined ? 'a command' : 'files'}`,
		);
	const geminiSessions = values.gemini ?? false;
	if (geminiSessions && (claudeSessions || codexSessions || paths.length > 0 || command !== undefined))
		return usageError(
			`--gemini opens the Gemini CLI sessions of this directory; it cannot be combined with ${claudeSessions ? '--claude' : codexSessions ? '--codex' : command !== undefined ? 'a command' : 'files'}`,
		);
	const otlpFile = values['otlp-file'];
	if (otlpFile === '') return usageError('--otlp-file needs a file name');
	const otlpFlags = {url: values.otlp, file: otlpFile, content: values['otlp-content'] ?? false, version: packageJson().version};
	return {
		kind: 'run',
		request: {
			paths,
			command,
			mode,
			follow,
			maxLineBytes,
			filter,
			replaySpeed,
			pricesFile: prices,
			otlp: otlpFlags,
			conversation,
			dialect,
			claudeSessions,
			codexSessions,
			geminiSessions,
		},
	};
}

/** The dialect `--dialect NAME` names, or what is wrong with NAME. The dialects' registry loads only for the option. */
async function dialectNamed(name: string): Promise<Dialect | {error: string}> {
	const {forcibleDialects} = await import('../parse/dialects/registry.js');
	const {dialects} = await import('../model/events.js');
	const wanted = name.trim().toLowerCase();
	const read = forcibleDialects.find(dialect => dialect === wanted);
	if (read !== undefined) return read;
	const list = forcibleDialects.join(', ');
	if (dialects.some(dialect => dialect === wanted)) return {error: `--dialect ${name}: this build of perscope does not read ${wanted} yet; it reads ${list}`};
	const guess = nearestWord(wanted, forcibleDialects);
	return {error: `--dialect ${name} is not a dialect perscope reads${guess === undefined ? '' : ` (did you mean ${guess}?)`}; it reads ${list}`};
}

/** The options and the files, or what is wrong with them, as a usage error says it. */
function readOptions(args: string[]): {values: Values; paths: string[]} | string {
	const {tokens} = parseArgs({args, options, strict: false, allowPositionals: true, tokens: true});
	const values: Values = {};
	const given: Record<string, unknown> = values;
	const paths: string[] = [];
	const unknown: string[] = [];
	for (const token of tokens) {
		if (token.kind === 'positional') {
			paths.push(token.value);
			continue;
		}

		// The `--` that ends the options was cut off before; parseArgs sees none.
		if (token.kind === 'option-terminator') continue;
		const name = token.name;
		if (!isOptionName(name)) {
			if (!unknown.includes(token.rawName)) unknown.push(token.rawName);
			continue;
		}

		if (options[name].type === 'boolean') {
			if (token.inlineValue === true) return `${token.rawName} takes no value`;
			given[name] = true;
			continue;
		}

		const {value} = token;
		if (value === undefined || (token.inlineValue === false && value.startsWith('-') && value !== '-' && !takesDashWords.has(name))) {
			return missingValue(name);
		}

		if (name === 'filter') {
			values.filter = [...(values.filter ?? []), value];
		} else if (given[name] === undefined) {
			given[name] = value;
		} else {
			return `--${name} can be given only once`;
		}
	}

	if (unknown.length > 0) {
		const guess = unknown.length === 1 ? nearestOption(unknown[0]!) : undefined;
		return `unknown option${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}${guess === undefined ? '' : ` (did you mean ${guess}?)`}`;
	}
	return {values, paths};
}

/** The option a mistyped one was most likely meant to be: within two edits, or one it starts (`--sum`). */
export function nearestOption(typed: string): string | undefined {
	const best = nearestWord(typed.replace(/^-+/, '').split('=', 1)[0]!.toLowerCase(), Object.keys(options));
	return best === undefined ? undefined : `--${best}`;
}

/** The candidate a mistyped word was most likely meant to be: within two edits, or one it starts (`sum`). */
function nearestWord(word: string, candidates: readonly string[]): string | undefined {
	if (word === '') return undefined;
	let best: string | undefined;
	let bestDistance = Number.POSITIVE_INFINITY;
	for (const name of candidates) {
		const distance = name.startsWith(word) && word.length >= 3 ? 0.5 : editDistance(word, name);
		if (distance < bestDistance) {
			best = name;
			bestDistance = distance;
		}
	}

	return best !== undefined && bestDistance <= Math.min(2, Math.floor(word.length / 3) + 1) ? best : undefined;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit (`--sumamry`). */
function editDistance(a: string, b: string): number {
	const rows: number[][] = Array.from({length: a.length + 1}, (_, i) => Array.from({length: b.length + 1}, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
	for (let i = 1; i <= a.length; i++) {
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, rows[i - 2]![j - 2]! + 1);
			rows[i]![j] = value;
		}
	}

	return rows[a.length]![b.length]!;
}

function isOptionName(name: string): name is OptionName {
	return Object.hasOwn(options, name);
}

/** What a value-taking option says when its value is missing (or looks like the next option). */
const missingValues: Partial<Record<OptionName, string>> = {
	prices: '--prices needs a file, as in --prices prices.json',
	conversation: '--conversation needs a run id or the start of one, as in --conversation 3f9a or --conversation 3f9a@12',
	'otlp-file': '--otlp-file needs a file name',
	'max-line-bytes': '--max-line-bytes needs a number of bytes, as in --max-line-bytes 1048576',
	dialect: '--dialect needs a name, as in --dialect claude-code',
	filter: '--filter needs an expression, as in --filter type:todo',
};

function missingValue(name: OptionName): string {
	return missingValues[name] ?? `--${name} needs a value`;
}

/** perscope's package.json: its version and description, for --version, --help and the OTLP export. */
function packageJson(): {version: string; description: string | undefined} {
	const read: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
	const fields = new Map<string, unknown>(typeof read === 'object' && read !== null ? Object.entries(read) : []);
	const version = fields.get('version');
	const description = fields.get('description');
	return {version: typeof version === 'string' ? version : 'unknown', description: typeof description === 'string' ? description : undefined};
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

/**
 * Two options take a value that may be left out, which parseArgs has no kind for (a string option takes the
 * next word, whatever it is). They are rewritten into their `=` form before it sees them:
 * - `--replay` alone means real time: `--replay run.ndjson` plays run.ndjson, not at the speed "run.ndjson".
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
		} else {
			out.push(arg);
		}
	}

	return {args: out, wordAfterReplay};
}
