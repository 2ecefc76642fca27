// Writes a live Perstack event stream to stdout at a fixed rate, for the benchmark's TUI measurement: one
// job with RUNS runs going side by side, almost all of it reasoning and result deltas, with a tool call
// and a checkpoint between the streams of each step (the runtime's wire format, small messages).
//
//   node bench/bench-feed.mjs --rate 5000 --seconds 10 --runs 10 [--go FILE] [--done FILE]
//
// With --go it writes the runs' starts, then waits for FILE to exist before streaming (so the viewer is up);
// with --done it writes `{"events":N,"startedAt":ms,"endedAt":ms}` to FILE once the stream is written.
import {existsSync, writeFileSync} from 'node:fs';
import {parseArgs} from 'node:util';

const {values} = parseArgs({
	options: {rate: {type: 'string'}, seconds: {type: 'string'}, runs: {type: 'string'}, go: {type: 'string'}, done: {type: 'string'}},
});
const rate = Number(values.rate ?? 5000);
const seconds = Number(values.seconds ?? 10);
const runCount = Number(values.runs ?? 10);
const deltasPerStream = 40;
const jobId = 'benchjob0000000000000000';
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

let sequence = 0;
const id = () => `ev${String(++sequence).padStart(22, '0')}`;
const usage = {inputTokens: 1200, outputTokens: 80, reasoningTokens: 20, totalTokens: 1280, cachedInputTokens: 512};
const words = 'the parser reads each line once and the viewer keeps only what it shows while the run goes on'.split(' ');

function head(type, run) {
	return {type, id: id(), expertKey: run.expertKey, timestamp: Date.now(), jobId, runId: run.runId, stepNumber: run.step};
}

function checkpoint(run, status) {
	return {
		id: id(),
		jobId,
		runId: run.runId,
		expert: {key: run.expertKey, name: run.expertKey, version: '1.0.0'},
		stepNumber: run.step,
		status,
		messages: [],
		usage,
	};
}

/** The events of one step of a run, in order: a reasoning stream, a tool call and its result, then a result stream. */
function* step(run) {
	yield {...head('startGeneration', run), messages: []};
	yield head('startStreamingReasoning', run);
	for (let i = 0; i < deltasPerStream; i++) yield {...head('streamReasoning', run), delta: `${words[(run.step + i) % words.length]} `};
	yield {...head('completeStreamingReasoning', run), text: 'thinking about the next step'};
	const callId = `toolu_${id()}`;
	yield {
		...head('callTools', run),
		newMessage: {type: 'expertMessage', contents: [{type: 'textPart', text: 'Running the tests.'}]},
		toolCalls: [{id: callId, skillName: '@perstack/base', toolName: 'exec', args: {command: 'npm', args: ['test']}}],
		usage,
	};
	yield {
		...head('resolveToolResults', run),
		toolResults: [{id: callId, skillName: '@perstack/base', toolName: 'exec', result: [{type: 'textPart', text: 'ok'}]}],
	};
	yield head('startStreamingRunResult', run);
	for (let i = 0; i < deltasPerStream; i++) yield {...head('streamRunResult', run), delta: `${words[(run.step * 3 + i) % words.length]} `};
	yield {...head('completeStreamingRunResult', run), text: 'step result'};
	yield {
		...head('continueToNextStep', run),
		checkpoint: checkpoint(run, 'proceeding'),
		step: {stepNumber: run.step, usage, startedAt: Date.now() - 500, finishedAt: Date.now()},
	};
	run.step++;
}

function* runEvents(run) {
	yield {
		...head('startRun', run),
		initialCheckpoint: checkpoint(run, 'init'),
		inputMessages: [{type: 'userMessage', contents: [{type: 'textPart', text: `Task number ${run.index}`}]}],
	};
	for (;;) yield* step(run);
}

const runs = Array.from({length: runCount}, (_, index) => ({
	index,
	runId: `benchrun${String(index).padStart(16, '0')}`,
	expertKey: `expert-${index}`,
	step: 1,
}));
const streams = runs.map(run => runEvents(run));
const write = text => (process.stdout.write(text) ? Promise.resolve() : new Promise(resolve => process.stdout.once('drain', resolve)));

process.stdout.on('error', () => process.exit(0));
// The runs start before the measured stream.
await write(streams.map(stream => JSON.stringify(stream.next().value) + '\n').join(''));
if (values.go) while (!existsSync(values.go)) await sleep(10);

const startedAt = Date.now();
const total = Math.round(rate * seconds);
let written = 0;
let next = 0;
while (written < total) {
	const due = Math.min(total, Math.floor(((Date.now() - startedAt) / 1000) * rate));
	let text = '';
	for (; written < due; written++) {
		text += JSON.stringify(streams[next].next().value) + '\n';
		next = (next + 1) % streams.length;
	}

	if (text !== '') await write(text);
	await sleep(5);
}

const endedAt = Date.now();
if (values.done) writeFileSync(values.done, JSON.stringify({events: written, startedAt, endedAt}));
