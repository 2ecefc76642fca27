// The viewer's load worker, failing part way, for the test of the viewer loading on its own thread instead
// (test/perf/viewer-load.test.ts): it does what the real one does (dist/load/viewer/serve-load.js) and posts its
// first `failAfter` messages, then throws, outside the load (which would otherwise report it as the file's error).
// Test-only: nothing in source/ knows it; the test names it in LoadTuning.loadWorkerModule.
import {parentPort, workerData} from 'node:worker_threads';
import {isLoadWorkerSetup, serveLoad} from '../../dist/load/viewer/serve-load.js';

const failAfter = 3;

if (parentPort && isLoadWorkerSetup(workerData)) {
	const port = parentPort;
	let posts = 0;
	serveLoad(workerData, message => {
		if (posts++ === failAfter) {
			setImmediate(() => {
				throw new Error(`failing after ${failAfter} posts, as the test asks`);
			});
		}

		if (posts <= failAfter) port.postMessage(message);
	});
}
