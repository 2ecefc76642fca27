import {assertNever} from '../model/assert-never.js';
import type {ToolActivity} from '../model/state.js';

/*
 * A tool call's arguments, typed per tool. The model keeps `args` as the model wrote them (`unknown`: a model
 * may call a tool with arguments of the wrong shape, and the runtime then reports the error), so a field is
 * here only when the call carried it with the type the tool declares (Perstack's base skill, apps/base), and
 * `undefined` otherwise: the types never claim more than the log holds.
 */

/** The tools whose only argument is a path. */
export type PathToolName = 'readImageFile' | 'readPdfFile' | 'deleteFile' | 'getFileInfo' | 'listDirectory' | 'createDirectory';

export type ToolInput =
	| {readonly tool: 'readTextFile'; readonly path: string | undefined; readonly from: number | undefined; readonly to: number | undefined}
	| {readonly tool: PathToolName; readonly path: string | undefined}
	| {readonly tool: 'writeTextFile' | 'appendTextFile'; readonly path: string | undefined; readonly text: string | undefined}
	| {readonly tool: 'editTextFile'; readonly path: string | undefined; readonly oldText: string | undefined; readonly newText: string | undefined}
	| {readonly tool: 'moveFile'; readonly source: string | undefined; readonly destination: string | undefined}
	| {readonly tool: 'deleteDirectory'; readonly path: string | undefined; readonly recursive: boolean | undefined}
	| {
			readonly tool: 'exec';
			readonly command: string | undefined;
			/** The arguments that are strings, in order; empty when there are none. */
			readonly args: readonly string[];
			readonly cwd: string | undefined;
			/** The variables whose values are strings. */
			readonly env: Readonly<Record<string, string>>;
			readonly timeoutMs: number | undefined;
	  }
	| {readonly tool: 'todo'; readonly newTodos: readonly string[]; readonly completedTodos: readonly number[]}
	| {readonly tool: 'clearTodo' | 'attemptCompletion'}
	/** A question to a person, or a tool of another skill (MCP): their arguments are the tool's own. */
	| {readonly tool: 'interactiveTool' | 'generalTool'; readonly skill: string; readonly name: string; readonly args: unknown};

function fieldOf(args: unknown, key: string): unknown {
	return typeof args === 'object' && args !== null && !Array.isArray(args) && Object.hasOwn(args, key) ? (args as Record<string, unknown>)[key] : undefined;
}

function text(args: unknown, key: string): string | undefined {
	const value = fieldOf(args, key);
	return typeof value === 'string' ? value : undefined;
}

function finite(args: unknown, key: string): number | undefined {
	const value = fieldOf(args, key);
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function texts(args: unknown, key: string): string[] {
	const value = fieldOf(args, key);
	return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function stringRecord(args: unknown, key: string): Record<string, string> {
	const value = fieldOf(args, key);
	// No prototype: a variable named `__proto__` or `constructor` is a variable like any other.
	const record: Record<string, string> = Object.create(null) as Record<string, string>;
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return record;
	for (const [name, item] of Object.entries(value)) if (typeof item === 'string') record[name] = item;
	return record;
}

/** A tool call's arguments as its tool declares them (see the type). */
export function toolInput(activity: ToolActivity): ToolInput {
	const {args} = activity;
	const tool = activity.type;
	switch (tool) {
		case 'readTextFile':
			return {tool, path: text(args, 'path'), from: finite(args, 'from'), to: finite(args, 'to')};
		case 'readImageFile':
		case 'readPdfFile':
		case 'deleteFile':
		case 'getFileInfo':
		case 'listDirectory':
		case 'createDirectory':
			return {tool, path: text(args, 'path')};
		case 'writeTextFile':
		case 'appendTextFile':
			return {tool, path: text(args, 'path'), text: text(args, 'text')};
		case 'editTextFile':
			return {tool, path: text(args, 'path'), oldText: text(args, 'oldText'), newText: text(args, 'newText')};
		case 'moveFile':
			return {tool, source: text(args, 'source'), destination: text(args, 'destination')};
		case 'deleteDirectory': {
			const recursive = fieldOf(args, 'recursive');
			return {tool, path: text(args, 'path'), recursive: typeof recursive === 'boolean' ? recursive : undefined};
		}
		case 'exec':
			return {
				tool,
				command: text(args, 'command'),
				args: texts(args, 'args'),
				cwd: text(args, 'cwd'),
				env: stringRecord(args, 'env'),
				timeoutMs: finite(args, 'timeout'),
			};
		case 'todo': {
			const completed = fieldOf(args, 'completedTodos');
			return {
				tool,
				newTodos: texts(args, 'newTodos'),
				completedTodos: Array.isArray(completed) ? completed.filter((item): item is number => typeof item === 'number' && Number.isFinite(item)) : [],
			};
		}
		case 'clearTodo':
		case 'attemptCompletion':
			return {tool};
		case 'interactiveTool':
		case 'generalTool':
			return {tool, skill: activity.skillName, name: activity.toolName, args};
		default:
			return assertNever(tool);
	}
}
