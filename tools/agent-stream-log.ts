/**
 * Large streams of the agent CLIs' dialects (`generate-log --dialect claude-code|codex|codex-rollout|gemini`), for the bench:
 * a real recording (fixtures/claude-code/, codex/, gemini/: the real CLIs against scripted stand-ins) played
 * again and again, each time as a session of its own. Every id the recording holds (sessions, threads, messages,
 * tool calls, items) is given a suffix per round, so no two rounds share a job, a run, a call or a message id,
 * and the reader sees many distinct sessions with the recording's real mix of lines, partial deltas included.
 */
import {readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

// `codex-rollout`: the sessions Codex keeps on disk (the TUI's and exec's), one after another.
export const agentDialects = ['claude-code', 'codex', 'codex-rollout', 'gemini'] as const;
export type AgentDialect = (typeof agentDialects)[number];

export function isAgentDialect(value: string): value is AgentDialect {
	return (agentDialects as readonly string[]).includes(value);
}

/** The recordings played, per dialect: the ones with the most of what a real session holds. */
const templates: Record<AgentDialect, readonly string[]> = {
	'claude-code': ['claude-code/nested-subagents.ndjson', 'claude-code/partial-messages.ndjson', 'claude-code/failing-tools.ndjson'],
	codex: ['codex/edit-and-test.jsonl', 'codex/mcp-and-retry.jsonl', 'codex/sub-agent.jsonl'],
	'codex-rollout': ['codex/rollout-tui.jsonl', 'codex/rollout-edit-and-test.jsonl'],
	gemini: ['gemini/fix-and-delegate.jsonl', 'gemini/auto-routed.jsonl', 'gemini/retried-500.jsonl'],
};

/** Keys whose string values are ids (the CLIs' own names for them), and keys of lists of ids. */
const idKey =
	/^(?:id|uuid|session_id|sessionId|thread_id|turn_id|sender_thread_id|tool_use_id|parent_tool_use_id|tool_id|task_id|parent_task_id|call_id|item_id|message_id|request_id|agent_id)$/;
const idsKey = /_ids$/;

function collectIds(value: unknown, ids: Set<string>): void {
	if (Array.isArray(value)) {
		for (const item of value) collectIds(item, ids);
		return;
	}

	if (typeof value !== 'object' || value === null) return;
	for (const [key, item] of Object.entries(value)) {
		if (typeof item === 'string' && item !== '' && idKey.test(key)) {
			ids.add(item);
		} else if (Array.isArray(item) && idsKey.test(key)) {
			for (const id of item) if (typeof id === 'string' && id !== '') ids.add(id);
		} else {
			collectIds(item, ids);
		}
	}
}

/** A recording's lines, and every id its lines hold, as they appear in the JSON text (quoted). */
type Template = {lines: string[]; ids: string[]};

function loadTemplate(path: string): Template {
	const lines = readFileSync(path, 'utf8')
		.split('\n')
		.filter(line => line.trim() !== '');
	const ids = new Set<string>();
	for (const line of lines) {
		try {
			collectIds(JSON.parse(line), ids);
		} catch {
			// A line that is not JSON is played as it is.
		}
	}

	// Longest first, so that an id that another contains is not replaced inside it.
	return {lines, ids: [...ids].sort((a, b) => b.length - a.length).map(id => JSON.stringify(id))};
}

/** The recording's lines of round `round`, each id `"x"` written `"x-r<round>"`. */
function* round(template: Template, index: number): Generator<string> {
	for (const line of template.lines) {
		let out = line;
		for (const id of template.ids) if (out.includes(id)) out = out.split(id).join(`${id.slice(0, -1)}-r${index}"`);
		yield out;
	}
}

/** Rounds of the dialect's recordings, in turn, while `more()` says so. */
export function* agentStreamLines(dialect: AgentDialect, more: () => boolean): Generator<string> {
	// Bundled into build/tools/ for `npm run gen` and the bench; read from tools/ by the tests.
	const fixtures = fileURLToPath(new URL(import.meta.url.includes('/build/tools/') ? '../../fixtures/' : '../fixtures/', import.meta.url));
	const loaded = templates[dialect].map(name => loadTemplate(fixtures + name));
	for (let index = 0; more(); index++) yield* round(loaded[index % loaded.length]!, index);
}
