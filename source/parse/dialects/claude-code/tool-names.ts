import type {ToolCall} from '../../../model/events.js';

/* Claude Code's tool names as perscope shows them: an MCP tool by its server (the skill) and its own name. */

/** An MCP tool's name (`mcp__server__tool`) names its server as the skill; Claude Code's own tools have none. */
export function skillOf(name: string): string {
	const match = /^mcp__(.+?)__(.+)$/.exec(name);
	return match ? match[1]! : '';
}

export function toolOf(name: string): string {
	const match = /^mcp__(.+?)__(.+)$/.exec(name);
	return match ? match[2]! : name;
}

export function toolCall(id: string, name: string, input: unknown): ToolCall {
	return {id, skillName: skillOf(name), toolName: toolOf(name), args: input};
}
