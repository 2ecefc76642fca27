import {parentPort, workerData} from 'node:worker_threads';
import {batchTransferList} from './chunk-batch.js';
import {isChunkWorkerSetup, parseClaimedChunks} from './claim-chunks.js';

/*
 * A chunk worker of the parallel loader (parallel-file.ts starts it): it parses the chunks it claims
 * (claim-chunks.ts) and posts their lines, moving each batch's buffers rather than copying them.
 */

const setup: unknown = workerData;
if (parentPort && isChunkWorkerSetup(setup)) {
	const port = parentPort;
	parseClaimedChunks(setup, message => port.postMessage(message, batchTransferList(message.batch)));
}
