#!/usr/bin/env node
/**
 * Seeded generator of large, realistic Perstack event logs (NDJSON) for benchmarks and stress tests.
 *
 * The output follows the wire format of the real runtime (see fixtures/real/): one `initializeRuntime`,
 * `skillConnected` and `skillDisconnected` per run, `startGeneration` and checkpoints carrying the whole
 * growing message history (this is what makes real logs big), reasoning and result streams, step numbers
 * running across the job, and a delegation in which the children run in parallel and the coordinator resumes
 * as a new run. The same options and seed always give byte-identical output; nothing depends on the clock.
 *
 * Output is written through a stream honouring backpressure, so producing gigabytes needs little memory.
 *
 * A tool of the workshop, not part of the package: `npm run build` bundles it into build/tools/ (scripts/build-tools.mjs),
 * and `npm run gen -- [options]` builds and runs it.
 */
import {createWriteStream} from 'node:fs';
import {once} from 'node:events';
import {performance} from 'node:perf_hooks';
import {parseArgs} from 'node:util';
import {CHILD_EXPERTS, JobWriter} from './job-log.js';
import {Rng} from './rng.js';
import {isShape, shapeLines, shapes, type ShapeOptions} from './shape-log.js';
import {agentDialects, agentStreamLines, isAgentDialect, type AgentDialect} from './agent-stream-log.js';

const HELP = `Usage: generate-log [options]

Writes a seeded, realistic Perstack NDJSON event log (the real runtime's wire format).

Options:
  --seed N            PRNG seed; the same seed and options give byte-identical output (default 1)
  --jobs N            number of jobs (default 40)
  --steps N           coordinator steps per job, across its runs (default 30; at least 3 when delegating)
  --children N        experts delegated to in parallel from one coordinator step (default 2; 0 = none)
  --deltas N          streaming deltas per generation (default 30; 0 = no streaming events)
  --message-bytes N   approximate size of each message's text (default 800)
  --target-bytes N    keep adding jobs until the output reaches N bytes (overrides --jobs)
  --no-histories      checkpoints and startGeneration carry no message history (the runtime's carry the
                      whole history, so a job's bytes grow with the square of its steps)
  --shape S           instead of realistic jobs, one job of bare runs in a hostile shape: ${shapes.join(', ')}
                      (see shape-log.ts); --runs sets how many
  --runs N            runs of a --shape log (default 1000)
  --dialect D         instead of Perstack, a stream of an agent CLI: ${agentDialects.join(', ')}: its real recordings
                      (fixtures/) played again and again, each round a session of its own with ids of its own;
                      --jobs counts rounds, --target-bytes bytes
  --out FILE          write to FILE instead of stdout
  -h, --help          show this help

A one-line summary (events, bytes) goes to stderr.
Example: npm run gen -- --seed 7 --target-bytes 1000000000 --out /tmp/big.ndjson
`;

type Options = {
	seed: number;
	jobs: number;
	steps: number;
	children: number;
	deltas: number;
	messageBytes: number;
	histories: boolean;
	targetBytes: number | undefined;
	out: string | undefined;
	shape: ShapeOptions | undefined;
	dialect: AgentDialect | undefined;
};

class UsageError extends Error {}

function parseOptions(argv: string[]): Options | 'help' {
	const {values} = parseArgs({
		args: argv,
		strict: true,
		allowPositionals: false,
		options: {
			seed: {type: 'string'},
			jobs: {type: 'string'},
			steps: {type: 'string'},
			children: {type: 'string'},
			deltas: {type: 'string'},
			'message-bytes': {type: 'string'},
			'target-bytes': {type: 'string'},
			out: {type: 'string'},
			shape: {type: 'string'},
			runs: {type: 'string'},
			dialect: {type: 'string'},
			'no-histories': {type: 'boolean'},
			help: {type: 'boolean', short: 'h'},
		},
	});
	if (values.help) return 'help';
	const int = (name: string, value: string | undefined, fallback: number, min: number): number => {
		if (value === undefined) return fallback;
		const n = Number(value);
		if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
		return n;
	};
	const seed = int('seed', values.seed, 1, 0);
	const {shape} = values;
	if (shape !== undefined && !isShape(shape)) throw new UsageError(`--shape must be one of ${shapes.join(', ')}, got ${JSON.stringify(shape)}`);
	const {dialect} = values;
	if (dialect !== undefined && !isAgentDialect(dialect))
		throw new UsageError(`--dialect must be one of ${agentDialects.join(', ')}, got ${JSON.stringify(dialect)}`);
	if (dialect !== undefined && shape !== undefined) throw new UsageError('--dialect and --shape do not go together');
	return {
		seed,
		jobs: int('jobs', values.jobs, 40, 0),
		steps: int('steps', values.steps, 30, 1),
		children: int('children', values.children, 2, 0),
		deltas: int('deltas', values.deltas, 30, 0),
		messageBytes: int('message-bytes', values['message-bytes'], 800, 1),
		histories: values['no-histories'] !== true,
		targetBytes: values['target-bytes'] === undefined ? undefined : int('target-bytes', values['target-bytes'], 0, 1),
		out: values.out,
		shape: shape === undefined ? undefined : {shape, runs: int('runs', values.runs, 1000, 1), seed},
		dialect,
	};
}

// ---------------------------------------------------------------------------------------------------------------
// Output

const FLUSH_BYTES = 1 << 20;

class Sink {
	events = 0;
	/** Bytes handed to the stream. */
	written = 0;
	private parts: string[] = [];
	private pending = 0;

	constructor(private readonly stream: NodeJS.WritableStream) {}

	get bytes(): number {
		return this.written + this.pending;
	}

	get full(): boolean {
		return this.pending >= FLUSH_BYTES;
	}

	push(line: string): void {
		this.parts.push(line, '\n');
		this.pending += line.length + 1; // generated text is ASCII: characters = bytes
		this.events++;
	}

	/** Set when the reader went away (EPIPE, e.g. `| head`): generation stops quietly. */
	closed = false;

	async flush(): Promise<void> {
		if (this.pending === 0 || this.closed) return;
		const chunk = this.parts.join('');
		this.parts = [];
		this.written += Buffer.byteLength(chunk);
		this.pending = 0;
		try {
			if (!this.stream.write(chunk)) await once(this.stream, 'drain');
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
			this.closed = true;
		}
	}
}

async function main(): Promise<number> {
	let opts: Options | 'help';
	try {
		opts = parseOptions(process.argv.slice(2));
	} catch (error) {
		process.stderr.write(`generate-log: ${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
		return 2;
	}
	if (opts === 'help') {
		process.stdout.write(HELP);
		return 0;
	}
	const started = performance.now();
	const stream = opts.out === undefined ? process.stdout : createWriteStream(opts.out, {highWaterMark: FLUSH_BYTES});
	const sink = new Sink(stream);
	stream.on('error', (error: NodeJS.ErrnoException) => {
		if (error.code === 'EPIPE') sink.closed = true;
		else {
			process.stderr.write(`generate-log: ${error.message}\n`);
			process.exit(1);
		}
	});
	const rng = new Rng(opts.seed);
	let clock = 1_795_300_000_000;
	let jobs = 0;
	const more = (): boolean => (opts.targetBytes !== undefined ? sink.bytes < opts.targetBytes : jobs < opts.jobs);
	if (opts.shape) {
		for (const line of shapeLines(opts.shape)) {
			sink.push(line);
			if (sink.full) await sink.flush();
			if (sink.closed) break;
		}

		jobs = 1;
	}

	if (opts.dialect) {
		const rounds = {count: 0};
		// A round is counted when its first line is asked for: `more` is asked once per round.
		for (const line of agentStreamLines(opts.dialect, () => more() && ++rounds.count > 0)) {
			sink.push(line);
			if (sink.full) await sink.flush();
			if (sink.closed) break;
			jobs = rounds.count;
		}
	}

	while (!opts.shape && !opts.dialect && more() && !sink.closed) {
		const keys = Array.from({length: opts.children}, (_, i) => (i < CHILD_EXPERTS.length ? CHILD_EXPERTS[i] : undefined) ?? `expert-${i + 1}`);
		const writer = new JobWriter(rng, opts, clock, keys);
		for (const line of writer.job()) {
			sink.push(line);
			if (sink.full) await sink.flush();
			if (sink.closed) break;
		}
		clock = writer.now + rng.int(5_000, 60_000);
		jobs++;
	}
	await sink.flush();
	if (opts.out !== undefined) {
		stream.end();
		await once(stream, 'finish');
	}
	const seconds = ((performance.now() - started) / 1000).toFixed(2);
	process.stderr.write(
		`generate-log: ${sink.events} events, ${sink.written} bytes, ${jobs} jobs (seed ${opts.seed}) → ${opts.out ?? 'stdout'} in ${seconds}s\n`,
	);
	return 0;
}

main().then(
	code => {
		process.exitCode = code;
	},
	(error: unknown) => {
		process.stderr.write(`generate-log: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		process.exitCode = 1;
	},
);
