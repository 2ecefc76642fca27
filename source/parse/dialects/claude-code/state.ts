import type {Dialect, Usage} from '../../../model/events.js';

/*
 * What the Claude Code reader keeps from line to line (stream.ts): per session its turns and cost reports, per
 * call who made it, per sub-agent and background task what is known of it, per run its step and response.
 */

export type ClaudeFlavour = {
	dialect: Dialect;
	/** The main loop's expert key. */
	rootExpert: string;
};

export type Turn = {runId: string; closed: boolean};

export type Session = {
	/** The turns begun, oldest first; a result closes the oldest open one. */
	turns: Turn[];
	/** The last `total_cost_usd` reported: it counts from the process's start. */
	reportedTotal: number;
	/** Runs of the session this stream made that no cost report covers yet. */
	uncovered: string[];
	/** What each MCP server was last said to be. */
	servers: Map<string, string>;
};

export type Call = {runId: string; name: string; delegate: boolean; input: unknown};

export type Child = {parentRunId: string; ended: boolean; background: boolean};

/** What a `task_started` said of a sub-agent whose run has not started yet. */
export type Task = {
	toolUseId: string;
	agent: boolean;
	subagentType: string | undefined;
	prompt: string | undefined;
	parentTaskId: string | undefined;
	background: boolean;
	/** When it ended, by the CLI's clock (`task_updated`'s `patch.end_time`, epoch ms), once said. */
	endedAt?: number;
};

export type RunState = {
	step: number;
	/** The response the current step is; undefined for lines that name none. */
	messageId: string | undefined;
	modelKnown: boolean;
	/** The text and thinking of the current response so far: a tool call of the same response carries them. */
	text: string | undefined;
	thinking: string | undefined;
	/** The run's last text, its answer when its end says none. */
	lastText: string | undefined;
	/** What a slash command the CLI ran itself printed (`/compact`: `Compacted`): the answer of a turn with no other. */
	commandOutput: string | undefined;
	/** What the reader has counted of its usage. */
	usage: Usage;
	query: string | undefined;
};
