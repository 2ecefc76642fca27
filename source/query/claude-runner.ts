/*
 * How the viewer's `a` runs Claude Code again for a session: the same program and the options that say how it runs
 * (tools allowed, model, permissions, MCP servers, …) as the command that started the session, when perscope
 * started it (`perscope -- claude -p "…" --output-format stream-json --verbose --allowedTools Bash,Read`). Without
 * them the next turn would run with the defaults (its tools asked for and, in `-p`, refused). What names the
 * session, the prompt or the output is the continuation's own.
 */

/** Claude Code's program words (`claude`, `/opt/bin/claude`) and the options a continuation keeps. */
export type ClaudeRunner = {program: readonly string[]; options: readonly string[]};

/** Where nothing says otherwise: the CLI on PATH, with no options. */
export const defaultClaudeRunner: ClaudeRunner = {program: ['claude'], options: []};

/** Options kept, with how many values each takes: one, or as many as follow it up to the next option (commander's variadic). */
const kept: ReadonlyMap<string, 0 | 1 | 'many'> = new Map<string, 0 | 1 | 'many'>([
	['--model', 1],
	['--fallback-model', 1],
	['--permission-mode', 1],
	['--max-turns', 1],
	['--append-system-prompt', 1],
	['--system-prompt', 1],
	['--settings', 1],
	['--agents', 1],
	['--setting-sources', 1],
	['--permission-prompt-tool', 1],
	['--max-budget-usd', 1],
	['--allowedTools', 'many'],
	['--allowed-tools', 'many'],
	['--disallowedTools', 'many'],
	['--disallowed-tools', 'many'],
	['--mcp-config', 'many'],
	['--add-dir', 'many'],
	['--include-partial-messages', 0],
	['--dangerously-skip-permissions', 0],
	['--strict-mcp-config', 0],
]);
/** Options left out that take a value, so that the value is not taken for the prompt. */
const droppedWithValue: ReadonlySet<string> = new Set(['--output-format', '--input-format', '--resume', '-r', '--session-id']);

/** A word that names Claude Code's program: `claude` (a path to it too), or its package as `npx` runs it. */
const claudeProgram = /(^|[/\\])claude(\.exe)?$|^@anthropic-ai\/claude-code(@[\w.-]+)?$/;
/** Words a command may start with before the program: a launcher, its options, variables set for it. */
const launcher = /^(npx|bunx|pnpx|env|nice|nohup|time)$|^-|^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * The runner of a command that runs Claude Code (its program, after a launcher such as `npx` if any; the rest its
 * arguments), or undefined for any other command (one that only mentions claude among its arguments too).
 */
export function claudeRunnerOf(command: readonly string[]): ClaudeRunner | undefined {
	const at = command.findIndex(word => !launcher.test(word));
	if (at < 0 || !claudeProgram.test(command[at]!)) return undefined;
	const options: string[] = [];
	for (let index = at + 1; index < command.length; index++) {
		const word = command[index]!;
		if (word === '--') break;
		if (!word.startsWith('-')) continue;
		const equals = word.indexOf('=');
		const name = equals < 0 ? word : word.slice(0, equals);
		const values = kept.get(name);
		if (values === undefined) {
			if (equals < 0 && droppedWithValue.has(name)) index++;
			continue;
		}

		options.push(word);
		if (equals >= 0 || values === 0) continue;
		// One value, or every word up to the next option.
		do {
			const next = command[index + 1];
			if (next === undefined || next.startsWith('-')) break;
			options.push(next);
			index++;
		} while (values === 'many');
	}

	return {program: command.slice(0, at + 1), options};
}
