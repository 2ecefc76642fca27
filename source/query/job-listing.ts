import type {RunStatus, Usage} from '../model/events.js';

/** One job of a jobs directory, as the job chooser and `perscope perstack --print` list it. */
export type JobListing = {
	jobId: string;
	/** The job's directory, to open it with. */
	path: string;
	/** The coordinator expert (the latest run without a parent). */
	coordinator: string | undefined;
	status: RunStatus;
	steps: number;
	usage: Usage;
	runs: number;
	startedAt: number | undefined;
	/** Time of the newest event file. */
	lastEventAt: number | undefined;
	/** What the job was first asked (its coordinator's query): what a person tells their jobs apart by. */
	query: string | undefined;
	/** Listed across Claude Code's projects (`~/.claude/projects`): the folder of the project the session is of. */
	project?: string | undefined;
	/** Files read with the job's own (a Codex session's sub-agents' rollouts), to open it whole. */
	companions?: string[] | undefined;
	/** Not read yet (the chooser reads a long list a slice at a time): only its name and path are known. */
	pending?: true | undefined;
};
