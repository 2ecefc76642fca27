import {jsonText} from '../json-values.js';
import {isRecord} from '../wire-reader.js';

/**
 * Tools that run a sub-agent: `invoke_agent` (0.39+, the agent in `agent_name`), and before it tools named after the
 * agent, of which the built-in ones are known by name (a stream says no more; a chat says it of any: chat-reader.ts).
 */
export const agentTools: ReadonlySet<string> = new Set(['invoke_agent', 'codebase_investigator', 'generalist', 'cli_help']);

/**
 * The sub-agent a call of a chat ran, told by what the CLI showed of it (`resultDisplay`, `isSubagentProgress`): a
 * tool named after an agent of the person's own is one too. Undefined for another tool's call.
 */
export function subagentShown(resultDisplay: unknown): {name: string; terminateReason: string | undefined; result: string | undefined} | undefined {
	if (!isRecord(resultDisplay) || resultDisplay['isSubagentProgress'] !== true) return undefined;
	const name = resultDisplay['agentName'];
	const reason = resultDisplay['terminateReason'];
	const result = resultDisplay['result'];
	return {
		name: typeof name === 'string' ? name : '',
		terminateReason: typeof reason === 'string' ? reason : undefined,
		result: typeof result === 'string' ? result : undefined,
	};
}

/** The sub-agent a call runs: its `agent_name`, else the tool's name (the older tools are named after the agent). */
export function agentName(toolName: string, parameters: unknown): string {
	const named = isRecord(parameters) ? parameters['agent_name'] : undefined;
	return typeof named === 'string' && named !== '' ? named : toolName;
}

/**
 * What a sub-agent was asked: its `prompt` (`invoke_agent`'s), or what an agent's own tool takes (`request`, the
 * generalist's; `objective`, the codebase investigator's; `question`, the CLI help's; `query`), else its parameters as JSON.
 */
export function promptOf(parameters: unknown): string | undefined {
	if (!isRecord(parameters)) return undefined;
	for (const key of ['prompt', 'request', 'objective', 'question', 'query']) {
		const value = parameters[key];
		if (typeof value === 'string') return value;
	}

	return jsonText(parameters);
}
