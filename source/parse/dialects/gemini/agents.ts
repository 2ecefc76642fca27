import {jsonText} from '../json-values.js';
import {isRecord} from '../wire-reader.js';

/** Tools that run a sub-agent: `invoke_agent` (0.39+, the agent in `agent_name`), and before it tools named after the agent. */
export const agentTools: ReadonlySet<string> = new Set(['invoke_agent', 'codebase_investigator']);

/** The sub-agent a call runs: its `agent_name`, else the tool's name (the older tools are named after the agent). */
export function agentName(toolName: string, parameters: unknown): string {
	const named = isRecord(parameters) ? parameters['agent_name'] : undefined;
	return typeof named === 'string' && named !== '' ? named : toolName;
}

/** What a sub-agent was asked: its `prompt` (or `objective`, `query`), else its parameters as JSON. */
export function promptOf(parameters: unknown): string | undefined {
	if (!isRecord(parameters)) return undefined;
	for (const key of ['prompt', 'objective', 'query']) {
		const value = parameters[key];
		if (typeof value === 'string') return value;
	}

	return jsonText(parameters);
}
