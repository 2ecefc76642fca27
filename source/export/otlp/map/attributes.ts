/*
 * Attribute names of OpenTelemetry's GenAI semantic conventions (README, "OpenTelemetry export", names the
 * version), written out here so that mapping a model does not load the conventions package; a test checks
 * each against the package's own constants. Names under `perscope.` are ours, for what the conventions do not say.
 */
export const attr = {
	operationName: 'gen_ai.operation.name',
	agentName: 'gen_ai.agent.name',
	agentId: 'gen_ai.agent.id',
	conversationId: 'gen_ai.conversation.id',
	requestModel: 'gen_ai.request.model',
	providerName: 'gen_ai.provider.name',
	inputTokens: 'gen_ai.usage.input_tokens',
	outputTokens: 'gen_ai.usage.output_tokens',
	cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
	reasoningOutputTokens: 'gen_ai.usage.reasoning.output_tokens',
	toolName: 'gen_ai.tool.name',
	toolCallId: 'gen_ai.tool.call.id',
	toolType: 'gen_ai.tool.type',
	toolCallArguments: 'gen_ai.tool.call.arguments',
	toolCallResult: 'gen_ai.tool.call.result',
	inputMessages: 'gen_ai.input.messages',
	outputMessages: 'gen_ai.output.messages',
	errorType: 'error.type',
	// perscope's own
	unfinished: 'perscope.unfinished',
	runIds: 'perscope.run.ids',
	runStatus: 'perscope.run.status',
	dialect: 'perscope.dialect',
	step: 'perscope.step',
	steps: 'perscope.steps',
	costUsd: 'perscope.cost.usd',
	skillName: 'perscope.skill.name',
	delegateExpert: 'perscope.delegate.expert',
	contentTruncated: 'perscope.content.truncated',
	timeReplaced: 'perscope.time.replaced',
	timeUnknown: 'perscope.time.unknown',
} as const;

export const operation = {invokeAgent: 'invoke_agent', chat: 'chat', executeTool: 'execute_tool'} as const;

/**
 * The provider, where the model's name says it plainly; otherwise none is claimed (the conventions' names
 * for providers are a closed list, and a wrong one is worse than none).
 */
export function providerOf(model: string): string | undefined {
	const name = model.toLowerCase().replace(/^[a-z-]+\//, '');
	if (name.startsWith('claude')) return 'anthropic';
	if (/^(gpt|o[1-9]|chatgpt)/.test(name)) return 'openai';
	if (name.startsWith('gemini')) return 'gcp.gemini';
	if (name.startsWith('mistral') || name.startsWith('codestral')) return 'mistral_ai';
	if (name.startsWith('deepseek')) return 'deepseek';
	if (name.startsWith('grok')) return 'x_ai';
	return undefined;
}
