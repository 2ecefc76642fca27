import {Worker} from 'node:worker_threads';
import type {ConversationStep} from '../../model/conversation.js';
import {readRequested, type ConversationRequest} from './message-line.js';

/**
 * The viewer's reads of agent CLIs' conversations (`c`), in a worker of their own: a long session's transcript is
 * tens of megabytes, whose reading and parsing paused the keys for a second on the viewer's thread. One worker,
 * started on the first read and kept (unreferenced) for the next; should it fail, the read is made here instead.
 */
export class ConversationReads {
	#worker: Worker | undefined;
	#failed = false;
	#nextId = 1;
	readonly #pending = new Map<number, {request: ConversationRequest; resolve: (step: ConversationStep | undefined) => void}>();
	/** The reads not answered yet, by what they ask: the same request asked again waits for the same answer. */
	readonly #asked = new Map<string, Promise<ConversationStep | undefined>>();

	read(request: ConversationRequest): Promise<ConversationStep | undefined> {
		const worker = this.#started();
		if (!worker) return Promise.resolve(readRequested(request));
		const key = JSON.stringify(request);
		const asked = this.#asked.get(key);
		if (asked) return asked;
		const id = this.#nextId++;
		const answer = new Promise<ConversationStep | undefined>(resolve => {
			this.#pending.set(id, {request, resolve});
			worker.postMessage({id, request});
		});
		this.#asked.set(key, answer);
		void answer.then(() => this.#asked.delete(key));
		return answer;
	}

	/** Ends the worker (the viewer is closing): reads still waiting come to nothing. */
	close(): void {
		const worker = this.#worker;
		this.#worker = undefined;
		this.#failed = true;
		for (const {resolve} of this.#pending.values()) resolve(undefined);
		this.#pending.clear();
		void worker?.terminate();
	}

	#started(): Worker | undefined {
		if (this.#worker || this.#failed) return this.#worker;
		try {
			const worker = new Worker(new URL('conversation-worker.js', import.meta.url));
			worker.unref();
			worker.on('message', (message: {id: number; conversation: ConversationStep | undefined}) => {
				const pending = this.#pending.get(message.id);
				this.#pending.delete(message.id);
				pending?.resolve(message.conversation);
			});
			const fail = () => {
				if (this.#worker !== worker) return;
				this.#worker = undefined;
				this.#failed = true;
				this.#settleHere();
			};
			worker.on('error', fail);
			worker.on('exit', fail);
			this.#worker = worker;
		} catch {
			this.#failed = true;
		}

		return this.#worker;
	}

	#settleHere(): void {
		for (const [id, {request, resolve}] of this.#pending) {
			this.#pending.delete(id);
			resolve(readRequested(request));
		}
	}
}
