import {expect} from 'vitest';
import type {ConversationStep} from '../../source/model/conversation.js';

/** The step, which must have ended (its given and added messages are what a test reads). */
export function ended(step: ConversationStep): Extract<ConversationStep, {kind: 'ended'}> {
	expect(step.kind).toBe('ended');
	return step as Extract<ConversationStep, {kind: 'ended'}>;
}
