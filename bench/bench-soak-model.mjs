// What the viewer's model alone keeps of the soak's stream, for bench/bench-soak.mjs: the same generated
// events reduced in this process into the model the viewer makes for stdin (tool results kept as the viewer keeps
// them), with the heap measured after a full collection once AT[i] events are in. Prints one JSON line:
// {samples: [{events, heapUsed, runs, activities}]}. Runs with --expose-gc.
//
//   node --expose-gc bench/bench-soak-model.mjs --dist dist --at 100000,2000000 LOG
import {createReadStream} from 'node:fs';
import {join, resolve} from 'node:path';
import {pathToFileURL} from 'node:url';
import {parseArgs} from 'node:util';

const {values, positionals} = parseArgs({allowPositionals: true, options: {dist: {type: 'string', default: 'dist'}, at: {type: 'string'}}});
const dist = resolve(values.dist);
const {Ingest} = await import(pathToFileURL(join(dist, 'load/ingest.js')).href);
const {createModel} = await import(pathToFileURL(join(dist, 'model/state.js')).href);
const at = (values.at ?? '')
	.split(',')
	.map(Number)
	.filter(Number.isFinite)
	.sort((a, b) => a - b);

const model = createModel();
// As app/interactive.ts keeps them for a stream it spools (stdin): the start of each result past a budget.
model.textKeep = {limit: 256, wholeBudget: 32 * 1024 * 1024};
const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024, model});
const splitter = ingest.splitter('-');
const samples = [];
const sample = () => {
	globalThis.gc();
	const memory = process.memoryUsage();
	samples.push({
		events: ingest.model.events,
		lines,
		heapUsed: memory.heapUsed,
		external: memory.external,
		arrayBuffers: memory.arrayBuffers,
		runs: ingest.model.runs.size,
		activities: ingest.model.activities.length,
	});
};

let lines = 0;
for await (const chunk of createReadStream(positionals[0])) {
	// Cut at line ends, so that a sample falls between two lines.
	let start = 0;
	for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, end + 1)) {
		lines++;
		if (at.length > 0 && lines === at[0]) {
			splitter.push(chunk.subarray(start, end + 1));
			start = end + 1;
			sample();
			at.shift();
		}
	}

	splitter.push(chunk.subarray(start));
}

splitter.end();
sample();
process.stdout.write(JSON.stringify({samples}) + '\n');
