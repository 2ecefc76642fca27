import * as semconv from '@opentelemetry/semantic-conventions/incubating';
import {describe, expect, it} from 'vitest';
import {attr, providerOf} from './attributes.js';

describe('attribute names', () => {
	it('are the GenAI semantic conventions’ own', () => {
		expect(attr.operationName).toBe(semconv.ATTR_GEN_AI_OPERATION_NAME);
		expect(attr.agentName).toBe(semconv.ATTR_GEN_AI_AGENT_NAME);
		expect(attr.agentId).toBe(semconv.ATTR_GEN_AI_AGENT_ID);
		expect(attr.conversationId).toBe(semconv.ATTR_GEN_AI_CONVERSATION_ID);
		expect(attr.requestModel).toBe(semconv.ATTR_GEN_AI_REQUEST_MODEL);
		expect(attr.providerName).toBe(semconv.ATTR_GEN_AI_PROVIDER_NAME);
		expect(attr.inputTokens).toBe(semconv.ATTR_GEN_AI_USAGE_INPUT_TOKENS);
		expect(attr.outputTokens).toBe(semconv.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS);
		expect(attr.cacheReadInputTokens).toBe(semconv.ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS);
		expect(attr.reasoningOutputTokens).toBe(semconv.ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS);
		expect(attr.toolName).toBe(semconv.ATTR_GEN_AI_TOOL_NAME);
		expect(attr.toolCallId).toBe(semconv.ATTR_GEN_AI_TOOL_CALL_ID);
		expect(attr.toolType).toBe(semconv.ATTR_GEN_AI_TOOL_TYPE);
		expect(attr.toolCallArguments).toBe(semconv.ATTR_GEN_AI_TOOL_CALL_ARGUMENTS);
		expect(attr.toolCallResult).toBe(semconv.ATTR_GEN_AI_TOOL_CALL_RESULT);
		expect(attr.inputMessages).toBe(semconv.ATTR_GEN_AI_INPUT_MESSAGES);
		expect(attr.outputMessages).toBe(semconv.ATTR_GEN_AI_OUTPUT_MESSAGES);
		expect(attr.errorType).toBe(semconv.ATTR_ERROR_TYPE);
		expect(semconv.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT).toBe('invoke_agent');
		expect(semconv.GEN_AI_OPERATION_NAME_VALUE_CHAT).toBe('chat');
		expect(semconv.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL).toBe('execute_tool');
	});

	it('names a provider only where the model’s name says it', () => {
		expect(providerOf('claude-sonnet-4-5')).toBe(semconv.GEN_AI_PROVIDER_NAME_VALUE_ANTHROPIC);
		expect(providerOf('openai/gpt-4o')).toBe(semconv.GEN_AI_PROVIDER_NAME_VALUE_OPENAI);
		expect(providerOf('gemini-2.5-pro')).toBe(semconv.GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI);
		expect(providerOf('my-local-model')).toBeUndefined();
	});
});
