import {parentPort, workerData} from 'node:worker_threads';
import {isLoadWorkerSetup, serveLoad} from './serve-load.js';

/*
 * The viewer's load worker (load-in-worker.ts starts it): it loads the plan and posts its progress and what
 * changed in its model (serve-load.ts).
 */

const setup: unknown = workerData;
if (parentPort && isLoadWorkerSetup(setup)) {
	const port = parentPort;
	serveLoad(setup, message => port.postMessage(message));
}
