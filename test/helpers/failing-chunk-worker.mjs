// A chunk worker that fails part way, for the tests of the main thread taking over (test/perf/worker-failure.test.ts):
// it does what the real one does (dist/load/parallel/claim-chunks.js) until it has posted `failAfter` batches, then
// throws, as a worker that runs out of memory or meets a bug would. Before it throws it leaves a mark beside the log
// (`<log>.worker-failed`), so that the test knows this module ran and failed. Test-only: nothing in source/ knows it;
// the test names it in LoadTuning.chunkWorkerModule. Plain JavaScript: a worker runs built code.
import {writeFileSync} from 'node:fs';
import {parentPort, workerData} from 'node:worker_threads';
import {batchTransferList} from '../../dist/load/parallel/chunk-batch.js';
import {isChunkWorkerSetup, parseClaimedChunks} from '../../dist/load/parallel/claim-chunks.js';

const failAfter = 2;

if (parentPort && isChunkWorkerSetup(workerData)) {
	const port = parentPort;
	let posted = 0;
	parseClaimedChunks(workerData, message => {
		if (posted === failAfter) {
			writeFileSync(`${workerData.path}.worker-failed`, '');
			throw new Error(`failing after ${posted} batches, as the test asks`);
		}

		posted++;
		port.postMessage(message, batchTransferList(message.batch));
	});
}
