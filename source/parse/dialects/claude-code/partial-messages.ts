import {streamChannel} from './content.js';
import type {ClaudeLineOf} from './schema.js';
import type {ClaudeStream} from './stream.js';
import {runOf} from './sub-agents.js';
import {usageOf} from './usage.js';

/*
 * Claude Code's `stream_event` lines (`--include-partial-messages`, reader.ts): the Messages API's raw events. A
 * message's start is a response (a step) with its usage, its delta the final output count, and its content
 * blocks' starts and deltas the run's live text and thinking as they are written.
 */

export function readStreamEvent(stream: ClaudeStream, line: ClaudeLineOf<'stream_event'>): void {
	const runId = runOf(stream, line);
	const {event} = line;
	const state = stream.state(runId);
	switch (event.type) {
		case 'message_start': {
			const message = event.message;
			stream.response(runId, message?.id, message?.model);
			if (message?.usage) stream.countUsage(runId, message.id, usageOf(message.usage));
			return;
		}

		case 'message_delta':
			if (event.usage) stream.countUsage(runId, state.messageId, usageOf(event.usage));
			else stream.marker();
			return;
		case 'content_block_start':
		case 'content_block_delta': {
			const channel = streamChannel(event.content_block?.type ?? event.delta?.type);
			if (channel === undefined) {
				stream.marker();
				return;
			}

			if (state.step === 0) stream.response(runId, undefined, undefined);
			const text = event.type === 'content_block_start' ? '' : channel === 'reasoning' ? (event.delta?.thinking ?? '') : (event.delta?.text ?? '');
			stream.emit(runId, {kind: 'stream', channel, phase: event.type === 'content_block_start' ? 'start' : 'delta', text}, state.step);
			return;
		}

		default:
			stream.marker();
	}
}
