// Writes a live Perstack event stream to stdout for the soak (bench/bench-soak.mjs): a log the generator made
// beforehand (so that making it takes no CPU from the viewer being measured) of realistic jobs (a coordinator's steps with reasoning streams and tool calls, two experts delegated to in
// parallel, the coordinator resuming as a new run, a result streamed at the end; jobs one after another a minute
// or so apart in the events' own time), without message histories, paced at RATE events a second. A day of a
// busy agent's events arrives in minutes: the time the events carry runs ~300 times as fast as the clock.
//
//   node bench/bench-soak-feed.mjs --rate R --go FILE --status FILE --close FILE LOG
//
// It waits for --go to exist before streaming (so the viewer is up), writes `{"events":N,"done":bool}` to
// --status every half second, and once every job is written keeps stdout open, the stream quiet, until --close
// exists: a live input that has gone quiet, as an agent's between two tasks.
import {createReadStream, existsSync, renameSync, writeFileSync} from 'node:fs';
import {parseArgs} from 'node:util';

const {values, positionals} = parseArgs({
	allowPositionals: true,
	options: {rate: {type: 'string'}, go: {type: 'string'}, status: {type: 'string'}, close: {type: 'string'}},
});

const rate = Number(values.rate ?? 10_000);
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));
let written = 0;
let done = false;

function status() {
	if (!values.status) return;
	// Written whole, then renamed: the bench never reads half a status.
	writeFileSync(`${values.status}.tmp`, JSON.stringify({events: written, done}));
	renameSync(`${values.status}.tmp`, values.status);
}

process.stdout.on('error', () => process.exit(0));
const write = text => (process.stdout.write(text) ? Promise.resolve() : new Promise(resolve => process.stdout.once('drain', resolve)));

if (values.go) while (!existsSync(values.go)) await sleep(20);
const statusTimer = setInterval(status, 500);
const startedAt = performance.now();
let partial = '';
for await (const chunk of createReadStream(positionals[0], {highWaterMark: 256 * 1024})) {
	const lines = (partial + chunk.toString('utf8')).split('\n');
	partial = lines.pop() ?? '';
	let next = 0;
	while (next < lines.length) {
		const due = Math.floor(((performance.now() - startedAt) / 1000) * rate) - written;
		if (due <= 0) {
			await sleep(5);
			continue;
		}

		const batch = lines.slice(next, next + due);
		next += batch.length;
		written += batch.length;
		await write(batch.join('\n') + '\n');
	}
}

done = true;
status();
clearInterval(statusTimer);
if (values.close) while (!existsSync(values.close)) await sleep(100);
