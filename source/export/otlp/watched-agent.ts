import type {Agent as HttpAgent} from 'node:http';

/**
 * An agent for the OTLP exporter's requests, keep-alive like the SDK's own, that passes each connection's error
 * to `onError` as it happens. The SDK retries a refused connection or a host not found quietly until its
 * timeout and reports only then; without this, the report on exit could say no more than that the backend took
 * no spans within the flush bound, and only after waiting it out.
 */
export function watchedAgent(onError: (error: Error) => void): (protocol: string) => Promise<HttpAgent> {
	return async protocol => {
		// Imported when asked for, as the SDK's own factory does (its documentation asks this of a factory).
		if (protocol === 'http:') {
			const {Agent} = await import('node:http');
			const agent = new Agent({keepAlive: true});
			const create = agent.createConnection.bind(agent);
			agent.createConnection = (options, callback) => watch(create(options, callback), onError);
			return agent;
		}

		const {Agent} = await import('node:https');
		const agent = new Agent({keepAlive: true});
		const create = agent.createConnection.bind(agent);
		agent.createConnection = (options, callback) => watch(create(options, callback), onError);
		return agent;
	};
}

/** Adds a listener beside the request's own (which still handles the error): nothing else changes. */
function watch<T extends NodeJS.EventEmitter | null | undefined>(socket: T, onError: (error: Error) => void): T {
	socket?.on('error', onError);
	return socket;
}
