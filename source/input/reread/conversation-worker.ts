import {parentPort} from 'node:worker_threads';
import {readRequested, type ConversationRequest} from './message-line.js';

/*
 * The viewer's reader of agent CLIs' conversations (conversation-reads.ts starts it): a Claude Code transcript or a
 * Codex rollout read up to a step and made into its messages, away from the thread that answers keys.
 */

if (parentPort) {
	const port = parentPort;
	port.on('message', (message: {id: number; request: ConversationRequest}) => {
		let conversation: ReturnType<typeof readRequested>;
		try {
			conversation = readRequested(message.request);
		} catch {
			conversation = undefined;
		}

		port.postMessage({id: message.id, conversation});
	});
}
