import {isToolActivity, type Activity, type ToolActivity} from '../model/state.js';
import {sanitizeLine} from './sanitize.js';
import {assertNever} from '../model/assert-never.js';
import {firstLine} from './first-line.js';
import {statusLook} from './status.js';

/*
 * The one-line form of an activity, shared by the TUI and the headless transcript so both say the same
 * thing. Every string returned here is sanitised: it is safe to write to a terminal.
 */

export type ActivityLine = {
	icon: string;
	/** Short verb: `read`, `exec`, `delegate`, … */
	verb: string;
	/** What it acted on: a path, a command, a query, a result. */
	detail: string;
	/** Set when the tool result is an error, or the activity is an error. */
	error: string | undefined;
	/** A tool call still waiting for its result. */
	pending: boolean;
	/** The detail is one path, which a narrow screen cuts in the middle to keep the file name. */
	path?: true;
	/**
	 * A delegate whose child has returned: its status glyph and the first line of its answer or error. A question:
	 * the person's answer, or where the runtime put an answer meant for it.
	 */
	outcome?: {glyph: string; failed: boolean; text: string};
};

const icons: Record<Activity['type'], string> = {
	query: '💬',
	complete: '✅',
	error: '❌',
	retry: '🔁',
	delegate: '🤝',
	delegationComplete: '📬',
	interactiveTool: '🙋',
	generalTool: '🔧',
	readTextFile: '📄',
	readImageFile: '🖼',
	readPdfFile: '📄',
	writeTextFile: '✏️',
	editTextFile: '✏️',
	appendTextFile: '✏️',
	deleteFile: '🗑',
	moveFile: '📦',
	getFileInfo: '📄',
	listDirectory: '📁',
	createDirectory: '📁',
	deleteDirectory: '🗑',
	exec: '⚡',
	todo: '☑',
	clearTodo: '☑',
	attemptCompletion: '🏁',
};

/** Tools whose detail is the one path they acted on. */
const pathTypes: ReadonlySet<Activity['type']> = new Set<Activity['type']>([
	'readTextFile',
	'readImageFile',
	'readPdfFile',
	'writeTextFile',
	'editTextFile',
	'appendTextFile',
	'deleteFile',
	'getFileInfo',
	'listDirectory',
	'createDirectory',
	'deleteDirectory',
]);

export function iconOf(type: Activity['type']): string {
	return icons[type];
}

/** What each icon a row can show means, for the help screen; a test checks that none is missing. */
export const iconLegend: ReadonlyArray<readonly [icon: string, meaning: string]> = [
	['💬', 'query'],
	['📄', 'read'],
	['🖼', 'read image'],
	['✏️', 'write / edit / append'],
	['📁', 'list / mkdir'],
	['📦', 'move'],
	['🗑', 'delete'],
	['⚡', 'exec'],
	['☑', 'todo'],
	['🤝', 'delegate'],
	['📬', 'delegates returned'],
	['🙋', 'interactive tool'],
	['🔧', 'other tool'],
	['🏁', 'attempt completion'],
	['✅', 'complete'],
	['❌', 'error'],
	['🔁', 'retry'],
];

/** Every icon an activity row can start with. */
export function activityIcons(): Set<string> {
	return new Set(Object.values(icons));
}

export function field(value: unknown, key: string): unknown {
	return typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
}

function stringField(value: unknown, key: string): string | undefined {
	const found = field(value, key);
	return typeof found === 'string' ? found : typeof found === 'number' ? String(found) : undefined;
}

/** JSON for display; a pathological value (100,000 levels deep) must not throw. */
export function safeJson(value: unknown, indent?: number): string {
	try {
		return JSON.stringify(value, null, indent) ?? String(value);
	} catch {
		return '[value too deep or cyclic to show]';
	}
}

function quoteArg(arg: string): string {
	return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

/** The command an `exec` ran, as a shell would read it (unsanitised: callers sanitise for their display). */
export function commandLine(args: unknown): string {
	const command = stringField(args, 'command') ?? '';
	const rest = field(args, 'args');
	const list = Array.isArray(rest) ? rest.map(item => (typeof item === 'string' ? quoteArg(item) : safeJson(item))) : [];
	return [command, ...list].filter(part => part !== '').join(' ');
}

function todoDetail(args: unknown): string {
	const added = field(args, 'newTodos');
	const done = field(args, 'completedTodos');
	const parts: string[] = [];
	if (Array.isArray(added) && added.length > 0)
		parts.push(`+${added.length}: ${added.map(item => (typeof item === 'string' ? item : safeJson(item))).join('; ')}`);
	if (Array.isArray(done) && done.length > 0) parts.push(`done ${done.map(item => safeJson(item)).join(', ')}`);
	return parts.join(' · ');
}

function completionDetail(activity: ToolActivity): string {
	const text = activity.result?.text;
	if (!text) return '';
	const remaining = field(parseJson(text), 'remainingTodos');
	return Array.isArray(remaining) && remaining.length > 0 ? `refused: ${remaining.length === 1 ? '1 todo remains' : `${remaining.length} todos remain`}` : '';
}

function parseJson(text: string): unknown {
	if (!text.startsWith('{')) return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

function toolLine(activity: ToolActivity): {verb: string; detail: string} {
	const {args} = activity;
	const path = stringField(args, 'path') ?? '';
	switch (activity.type) {
		case 'readTextFile':
			return {verb: 'read', detail: path};
		case 'readImageFile':
			return {verb: 'read image', detail: path};
		case 'readPdfFile':
			return {verb: 'read pdf', detail: path};
		case 'writeTextFile':
			return {verb: 'write', detail: path};
		case 'editTextFile':
			return {verb: 'edit', detail: path};
		case 'appendTextFile':
			return {verb: 'append', detail: path};
		case 'deleteFile':
			return {verb: 'delete', detail: path};
		case 'moveFile':
			return {verb: 'move', detail: `${stringField(args, 'source') ?? path} → ${stringField(args, 'destination') ?? ''}`};
		case 'getFileInfo':
			return {verb: 'info', detail: path};
		case 'listDirectory':
			return {verb: 'list', detail: path};
		case 'createDirectory':
			return {verb: 'mkdir', detail: path};
		case 'deleteDirectory':
			return {verb: 'rmdir', detail: path};
		case 'exec':
			return {verb: 'exec', detail: commandLine(args)};
		case 'todo':
			return {verb: 'todo', detail: todoDetail(args)};
		case 'clearTodo':
			return {verb: 'clear todos', detail: ''};
		case 'attemptCompletion':
			return {verb: 'attempt completion', detail: completionDetail(activity)};
		case 'interactiveTool':
			return {verb: `ask ${activity.toolName}`, detail: argsDetail(args)};
		case 'generalTool': {
			// A result whose call came before the log began (a stream joined mid-turn, lines left out): the result
			// names no tool (Claude Code's and Gemini CLI's do not).
			if (activity.toolName === '' && activity.skillName === '') return {verb: 'tool', detail: '(its call is not in the log)'};
			const skill = activity.skillName === '' ? '' : `${activity.skillName.replace(/^@perstack\//, '')}/`;
			return {verb: `${skill}${activity.toolName}`, detail: argsDetail(args)};
		}
		default:
			return assertNever(activity.type);
	}
}

/** The result of a call not in the log, after it (`↩ 1 SMOKE-TOOL-OK`): the only thing known of that call. */
function orphanOutcome(activity: ToolActivity): ActivityLine['outcome'] {
	if (activity.type !== 'generalTool' || activity.toolName !== '' || activity.skillName !== '') return undefined;
	if (activity.result === undefined || activity.result.error !== undefined) return undefined;
	return {glyph: '↩', failed: false, text: clip(firstLine(activity.result.text))};
}

/** A question's answer, after it: `↩ Blue, please.`, or where a misrouted answer went instead. */
function answerOutcome(activity: ToolActivity): ActivityLine['outcome'] {
	if (activity.result !== undefined) return {glyph: '↩', failed: false, text: clip(firstLine(activity.result.text))};
	const misrouted = activity.misroutedAnswer;
	if (misrouted === undefined) return undefined;
	return {glyph: '⚠', failed: true, text: clip(`answer attached to ${misrouted.toolName}, the question was asked again: ${firstLine(misrouted.text)}`)};
}

/**
 * Arguments that say what a tool acts on, whatever the runtime calls the tool (Claude Code's Bash, Read, Edit):
 * the command it runs, the file it acts on (`file_path` in Claude Code's and Gemini CLI's tools, `filePath` in
 * opencode's, `absolute_path` in Gemini CLI's read_file), what it searches for (a grep's or glob's `pattern`), the
 * page it fetches (`url`). Shown bare, as a row's detail; the inspector shows them all.
 */
const leadingArgs = ['command', 'file_path', 'filePath', 'absolute_path', 'pattern', 'url'];

export function argsDetail(args: unknown): string {
	if (args === undefined) return '';
	if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
		for (const key of leadingArgs) {
			const value = field(args, key);
			if (typeof value === 'string' && value !== '') return value;
		}

		// A todo list the model writes whole each time (Claude Code's TodoWrite, Gemini CLI's write_todos, opencode's
		// todowrite): how far it is, and what is under way, rather than the whole list as JSON.
		const todos = field(args, 'todos');
		if (Array.isArray(todos)) return todosDetail(todos);

		const keys = Object.keys(args);
		// One string argument reads best bare: `ask askUser Which colour…`.
		if (keys.length === 1) {
			const only = field(args, keys[0]!);
			if (typeof only === 'string') return only;
		}
	}

	return safeJson(args);
}

/** `3 todos, 1 done · now: Run the tests`: each item's `status` and its `content` (Gemini CLI: `description`). */
function todosDetail(todos: readonly unknown[]): string {
	const done = todos.filter(todo => field(todo, 'status') === 'completed').length;
	const now = todos.find(todo => field(todo, 'status') === 'in_progress');
	const text = stringField(now, 'content') ?? stringField(now, 'description');
	return `${todos.length} ${todos.length === 1 ? 'todo' : 'todos'}, ${done} done${text === undefined ? '' : ` · now: ${text}`}`;
}

/** What an answer that said nothing shows as, wherever an answer is shown (a row, --print's answer line). */
export const emptyAnswer = '(empty answer)';

/** Long enough for a transcript line; the TUI truncates to the screen width anyway. */
const maxDetail = 400;

function clip(text: string): string {
	const line = sanitizeLine(text.length > maxDetail * 2 ? text.slice(0, maxDetail * 2) : text);
	return line.length > maxDetail ? `${line.slice(0, cutAt(line, maxDetail - 1))}…` : line;
}

/** `at`, or one less when cutting there would split a surrogate pair (half an emoji is not valid UTF-8). */
function cutAt(text: string, at: number): number {
	const code = text.charCodeAt(at - 1);
	return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

export function describeActivity(activity: Activity): ActivityLine {
	const icon = icons[activity.type];
	if (isToolActivity(activity)) {
		const {verb, detail} = toolLine(activity);
		const answer = activity.type === 'interactiveTool' ? answerOutcome(activity) : orphanOutcome(activity);
		return {
			icon,
			verb: clip(verb),
			detail: clip(detail),
			error: activity.result?.error === undefined ? undefined : clip(activity.result.error),
			pending: activity.result === undefined && activity.type !== 'attemptCompletion' && answer === undefined,
			...(pathTypes.has(activity.type) ? {path: true} : {}),
			...(answer === undefined ? {} : {outcome: answer}),
		};
	}

	switch (activity.type) {
		case 'query':
			return {icon, verb: 'query', detail: clip(activity.text), error: undefined, pending: false};
		case 'complete':
			// A run that ended without a word (Gemini CLI after a tool call) says so, rather than end its line at `complete`.
			return {icon, verb: 'complete', detail: activity.text.trim() === '' ? emptyAnswer : clip(activity.text), error: undefined, pending: false};
		case 'error':
			return {
				icon,
				verb: 'error',
				detail: clip(`${activity.errorName}${activity.message === '' ? '' : `: ${activity.message}`}`),
				error: clip(activity.message || activity.errorName),
				pending: false,
			};
		case 'retry':
			return {icon, verb: 'retry', detail: clip(activity.reason), error: undefined, pending: false};
		case 'delegationComplete': {
			const names = activity.results.map(result => result.expertKey).join(', ');
			return {icon, verb: 'delegation complete', detail: clip(names), error: undefined, pending: false};
		}

		case 'delegate': {
			const {result} = activity;
			const failed = result?.error !== undefined;
			return {
				icon,
				verb: 'delegate',
				detail: clip(`${activity.delegateExpertKey}: ${activity.query}`),
				error: result?.error === undefined ? undefined : clip(result.error),
				pending: false,
				...(result === undefined
					? {}
					: // An empty answer says so, as --print's answer line does (Gemini CLI's sub-agents often end without a word).
						{
							outcome: {
								glyph: statusLook[failed ? 'stoppedByError' : 'completed'].glyph,
								failed,
								text: clip(firstLine(result.error ?? result.text) || emptyAnswer),
							},
						}),
			};
		}

		default:
			return assertNever(activity);
	}
}
