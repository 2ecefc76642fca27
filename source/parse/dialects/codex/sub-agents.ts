import type {AgentEvent} from '../../../model/events.js';
import {withSharedHead, type EventHead} from '../event-head.js';

/*
 * A sub-agent's end as its parent reports it, alike in `codex exec --json`'s collab items and a rollout's `wait_agent`
 * output: its run ends with its answer (or fails with its failure), and its delegation, the `spawn_agent` call, has
 * that answer as its result.
 */

/** A sub-agent spawned in the load: the run and the call that spawned it, and whether its end was reported. */
export type SpawnedAgent = {parentRunId: string; spawnId: string; ended: boolean};

/** The end of the sub-agent's run (thread `thread`): completed with `text`, or failed with `failure`. */
export function agentRunEnd(head: EventHead, thread: string, text: string, failure: string | undefined): AgentEvent {
	return withSharedHead(head, {
		runId: thread,
		step: undefined,
		kind: 'runEnd',
		status: failure === undefined ? 'completed' : 'stoppedByError',
		text,
		message: failure,
		usage: undefined,
	});
}

/** The answer of the delegation that spawned it. */
export function agentAnswer(head: EventHead, agent: SpawnedAgent, text: string, failure: string | undefined): AgentEvent {
	return withSharedHead(head, {kind: 'toolResults', results: [{id: agent.spawnId, skillName: 'codex', toolName: 'spawn_agent', text, error: failure}]});
}
