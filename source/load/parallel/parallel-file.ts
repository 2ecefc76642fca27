import {closeSync, fstatSync, openSync, read, readSync} from 'node:fs';
import {availableParallelism} from 'node:os';
import {Worker} from 'node:worker_threads';
import type {Ingest} from '../ingest.js';
import {readBatch} from './chunk-batch.js';
import {describeFsError} from '../../input/fs-errors.js';
import type {InputPlan} from '../../input/inputs.js';
import {LineParser} from '../../parse/line-parser.js';
import {ChunkReader, maxChunkInMemory, parseChunk, type Chunk, type ChunkItem, type ChunkSink} from './parse-chunk.js';
import type {LinePosition} from '../../parse/line-splitter.js';
import type {PlainFile} from '../../input/plain-files.js';
import {workerResourceLimits, type Batch, type ChunkWorkerMessage, type ChunkWorkerSetup} from '../protocol.js';
import type {LoadTuning} from '../tuning.js';
import {initialSourceState, type RunningSources, type SourcesHooks, type SourceState} from '../../input/source-state.js';

/*
 * The fast way to load plain files (not followed, not compressed). The file is cut into chunks at line
 * boundaries and each line is parsed from its bytes: message histories are cut before JSON.parse sees them
 * (model/prune-line.ts) and streaming deltas skip JSON.parse and the schema altogether (model/stream-line.ts).
 * On machines with cores to spare, a worker claims chunks a little ahead of the main thread and parses them
 * too, while the main thread parses whatever nobody claimed and reduces every chunk's events strictly in file
 * order. The model, the diagnostics and every line number and offset come out exactly as from runSources;
 * test/perf checks that.
 *
 * With PERSCOPE_FAST=0 the apps do not use it (runSources reads everything). Tests and measurements set
 * the number of workers, the chunk size and more through FastOptions.tuning (tuning.ts).
 */

const mainId = 1;
const batchSize = 1024;

export type FastOptions = {
	/**
	 * The main thread takes nothing in until this settles; any workers parse from the first chunk on meanwhile.
	 * The viewer passes its first frame, for files small enough to read on its own thread: Ink's loading then
	 * does not wait for them (large files load in a worker of their own: load-in-worker.ts).
	 */
	mainThreadFrom?: Promise<void> | undefined;
	tuning?: LoadTuning | undefined;
};

/**
 * Reads the plan's inputs the fast way, `files` being its plain files (`plainFiles(plan)`, which must not be
 * undefined). What reads any other plan (input/run-sources.ts, with its commands, pipes, followed and compressed
 * files, ~15 modules) is not imported here: the headless modes import it only for a plan that needs it, and a
 * start that reads a plain file does not load it (load/run-sources-fast.ts chooses between the two).
 */
export function runPlainFiles(
	plan: InputPlan,
	files: readonly PlainFile[],
	ingest: Ingest,
	hooks: SourcesHooks = {},
	options: FastOptions = {},
): RunningSources {
	const controller = new AbortController();
	const states = plan.inputs.map(input => initialSourceState(input));
	const changed = () => hooks.onChange?.();
	const afterChunk = async () => {
		await hooks.afterChunk?.();
		changed();
	};

	const done = (async () => {
		let exitCode = 0;
		for (const [index, file] of files.entries()) {
			const state = states[index]!;
			try {
				await loadFile(file, state, ingest, afterChunk, controller.signal, options);
				// As a splitter's end does on the other paths (Ingest.endSource).
				ingest.endSource(file.label);
			} catch (error) {
				state.error = `cannot read ${file.label}: ${describeFsError(error)}`;
				ingest.sourceProblem(file.label, state.error);
				exitCode = 1;
			}

			state.live = false;
			changed();
		}

		return exitCode;
	})();

	return {
		states,
		done,
		interrupt: () => false,
		childRunning: () => false,
		stop: () => controller.abort(),
		signalCommand: () => false,
		abandon: () => controller.abort(),
	};
}

/** Resolves once chunk `index` is claimed (a worker notifies), or after a while in case no one ever does. */
async function claimedOrTimeout(claims: Int32Array, index: number): Promise<void> {
	const waited = Atomics.waitAsync(claims, index, 0, 50);
	if (waited.async) await waited.value;
}

/** The chunks' size: forced by the tuning (tests, measurements), else from the file's size. */
function chunkSizesFor(size: number, forced: number | undefined): {first: number; nominal: number} {
	if (forced !== undefined && forced > 0) return {first: forced, nominal: forced};
	const nominal = Math.min(4 * 1024 * 1024, Math.max(1024 * 1024, Math.round(size / 64)));
	// The first chunks are parsed by code not yet optimised, several times slower than later ones, and the
	// viewer answers keys only between chunks: a key pressed as the viewer appears waited behind a full-size
	// first chunk (docs/performance.md). Starting small and doubling costs the headless load nothing measurable.
	return {first: Math.min(nominal, firstChunkBytes), nominal};
}

const firstChunkBytes = 256 * 1024;

/** A worker's start (it loads the schemas) is not worth it for small files. */
const minParallelBytes = 64 * 1024 * 1024;

/**
 * No worker on machines with fewer than four logical CPUs. Measured on the 2-vCPU machine this was built
 * for, two busy threads there get little more done than one (the vCPUs do not add up to two cores), so a
 * worker only added its start-up, the copying of events between threads and memory: the load
 * took longer than on the main thread alone (docs/performance.md).
 */
const minCpusForWorkers = 4;

function workerCountFor(size: number, chunks: number, forced: number | undefined): number {
	if (forced !== undefined) return Math.min(forced, Math.max(0, chunks - 1));
	if (size < minParallelBytes || availableParallelism() < minCpusForWorkers) return 0;
	return 1;
}

/** How far past the chunks the main thread has consumed a worker starts claiming, when the main thread parses too. */
const workerGap = 12;

/**
 * Cuts [0, size) into chunks each ending just after a newline (the last at the end): the first of about
 * `first` bytes, each next one twice as big, up to about `nominal` bytes.
 */
export function planChunks(fd: number, size: number, nominal: number, first = nominal): Chunk[] {
	const chunks: Chunk[] = [];
	const probe = Buffer.allocUnsafe(64 * 1024);
	let start = 0;
	let wanted = Math.min(first, nominal);
	while (start < size) {
		let end = size;
		let position = start + wanted - 1;
		wanted = Math.min(nominal, wanted * 2);
		while (position < size) {
			const read = readSync(fd, probe, 0, probe.length, position);
			if (read === 0) break;
			const at = probe.subarray(0, read).indexOf(0x0a);
			if (at !== -1) {
				end = position + at + 1;
				break;
			}

			position += read;
		}

		chunks.push({start, end});
		start = end;
	}

	return chunks;
}

async function loadFile(
	file: PlainFile,
	state: SourceState,
	ingest: Ingest,
	afterChunk: () => Promise<void>,
	signal: AbortSignal,
	{mainThreadFrom, tuning = {}}: FastOptions,
): Promise<void> {
	const mainClaims = tuning.mainThreadParses !== false;
	const fd = openSync(file.path, 'r');
	let workers: ChunkWorker[] = [];
	let readAhead: ReadAhead | undefined;
	// [chunks consumed by the main thread, 1 to stop, the workers' gap]: see WorkerSetup.control.
	const control = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
	// Whether the main thread is still kept off the chunks (see FastOptions.mainThreadFrom).
	let mainHeld = mainThreadFrom !== undefined;
	// Tells workers where to claim from. They stay a few chunks ahead of a main thread that parses too, so one
	// that gets less CPU than hoped (a busy machine) is rarely what it waits for: it parses the nearer chunks
	// itself. While the main thread is held or leaves every chunk to them, they claim from the first chunk on.
	const setWorkerMode = () => {
		Atomics.store(control, 2, mainHeld || !mainClaims ? 0 : workerGap);
	};

	const release = () => {
		mainHeld = false;
		setWorkerMode();
	};

	const released = mainThreadFrom?.then(release, release);
	try {
		const size = fstatSync(fd).size;
		state.bytesTotal = size;
		const {first, nominal} = chunkSizesFor(size, tuning.chunkBytes);
		const chunks = planChunks(fd, size, nominal, first);
		const claimsBuffer = new SharedArrayBuffer(Math.max(1, chunks.length) * Int32Array.BYTES_PER_ELEMENT);
		const countedBuffer = new SharedArrayBuffer(Math.max(1, chunks.length) * Int32Array.BYTES_PER_ELEMENT);
		const countsBuffer = new SharedArrayBuffer(Math.max(1, chunks.length) * Float64Array.BYTES_PER_ELEMENT);
		const claims = new Int32Array(claimsBuffer);
		const counted = new Int32Array(countedBuffer);
		const counts = new Float64Array(countsBuffer);
		const workerCount = workerCountFor(size, chunks.length, tuning.chunkWorkers);
		setWorkerMode();
		const setup = (id: number): ChunkWorkerSetup => ({
			path: file.path,
			source: file.label,
			maxLineBytes: ingest.maxLineBytes,
			dialect: ingest.parseOptions.dialect,
			chunks,
			id,
			// Deep enough for a worker to go on while the main thread is held (see FastOptions): what waits
			// is a few hundred kilobytes of parsed items per chunk.
			lookahead: 64 + 4 * workerCount,
			batchSize,
			claims: claimsBuffer,
			counted: countedBuffer,
			counts: countsBuffer,
			control: control.buffer,
		});
		const module = tuning.chunkWorkerModule === undefined ? new URL('parse-chunk-worker.js', import.meta.url) : new URL(tuning.chunkWorkerModule);
		workers = Array.from({length: workerCount}, (_unused, index) => new ChunkWorker(module, setup(mainId + 1 + index)));

		const reader = new ChunkReader(fd);
		// Plain files are read this way only when the fast path is on (plainFiles).
		const parser = new LineParser({fast: true, dialect: ingest.parseOptions.dialect});
		const feed = (item: ChunkItem) => {
			if (item.kind === 'overlong') ingest.overlong(item.overlong);
			else ingest.parsed(item);
		};

		const direct: ChunkSink = {
			item: feed,
			stream: (fields, ref) => ingest.streamLine(fields, ref),
			afterLine: () => undefined,
		};

		// With no worker, every chunk is the main thread's: the next one is read while this one is parsed.
		readAhead = workers.length === 0 ? new ReadAhead(fd, chunks) : undefined;
		let lines = 0;
		for (const [index, chunk] of chunks.entries()) {
			// Held, the main thread takes nothing in yet, not even what a worker delivered.
			if (mainHeld && released) await released;
			if (signal.aborted) return;
			const ahead = await readAhead?.take(index);
			let from: LinePosition = {offset: chunk.start, lines};
			// Leave the chunk to a worker while one is alive, if told to (tuning.mainThreadParses).
			while (!mainClaims && Atomics.load(claims, index) === 0 && workers.some(worker => !worker.ended)) {
				await claimedOrTimeout(claims, index);
			}

			const claimer = Atomics.compareExchange(claims, index, 0, mainId);
			const worker = claimer === 0 ? undefined : workers[claimer - mainId - 1];
			let finished = false;
			if (worker) {
				const delivered = await worker.deliver(index, batch => readBatch(batch, file.label, direct));
				if (delivered === 'done') finished = true;
				// The worker died part way: what it did not deliver is read here.
				else if (delivered !== undefined) from = delivered;
			}

			const parse = (bytes: Buffer | undefined) =>
				parseChunk({
					reader,
					parser,
					chunk: {start: from.offset, end: chunk.end},
					bytes: bytes?.subarray(from.offset - chunk.start),
					from,
					source: file.label,
					maxLineBytes: ingest.maxLineBytes,
					sink: direct,
				});
			if (finished) lines += counts[index]!;
			// Read ahead, so with no worker: no one else needs the chunk's line count, which is where it leaves off.
			else if (ahead) lines = parse(ahead).lines;
			else {
				const {bytes, newlines} = reader.load(chunk);
				if (Atomics.load(counted, index) === 0) {
					counts[index] = newlines;
					Atomics.store(counted, index, 1);
					Atomics.notify(counted, index);
				}

				parse(bytes);
				lines += counts[index]!;
			}

			Atomics.store(control, 0, index + 1);
			Atomics.notify(control, 0);
			state.bytesRead = chunk.end;
			await afterChunk();
		}
	} finally {
		Atomics.store(control, 1, 1);
		Atomics.notify(control, 0);
		for (const worker of workers) void worker.stop();
		// A read still under way when loading stops must end before its file is closed.
		await readAhead?.settle();
		closeSync(fd);
	}
}

/**
 * Reads chunks one ahead of the one being parsed, into two buffers used in turn: the copying from the page
 * cache (a tenth of the time of a large load) then happens on a thread of libuv's pool, on the other core,
 * while the main thread parses. Chunks too large to hold are left to ChunkReader (undefined).
 */
class ReadAhead {
	readonly #fd: number;
	readonly #chunks: Chunk[];
	/** Grown to the largest chunk each has held: a chunk of very long lines makes only one of them large. */
	readonly #buffers: [Buffer, Buffer] = [Buffer.alloc(0), Buffer.alloc(0)];
	#pending: {index: number; read: Promise<Buffer>} | undefined;

	constructor(fd: number, chunks: Chunk[]) {
		this.#fd = fd;
		this.#chunks = chunks;
		this.#start(0);
	}

	/** Chunk `index`'s bytes (then the next chunk's reading starts), or undefined. */
	async take(index: number): Promise<Buffer | undefined> {
		const pending = this.#pending;
		this.#pending = undefined;
		const bytes = pending?.index === index ? await pending.read : undefined;
		this.#start(index + 1);
		return bytes;
	}

	async settle(): Promise<void> {
		await this.#pending?.read.catch(() => undefined);
	}

	#start(index: number): void {
		const chunk = this.#chunks[index];
		const length = chunk ? chunk.end - chunk.start : 0;
		if (!chunk || length > maxChunkInMemory) return;
		const which = index % 2 === 0 ? 0 : 1;
		let buffer = this.#buffers[which];
		if (buffer.length < length) {
			buffer = Buffer.allocUnsafe(length);
			this.#buffers[which] = buffer;
		}

		this.#pending = {index, read: readFully(this.#fd, buffer, chunk)};
	}
}

/** The chunk's bytes, read into the start of `buffer`. */
async function readFully(fd: number, buffer: Buffer, chunk: Chunk): Promise<Buffer> {
	const length = chunk.end - chunk.start;
	let done = 0;
	while (done < length) {
		const count = await new Promise<number>((resolve, reject) => {
			read(fd, buffer, done, length - done, chunk.start + done, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead)));
		});
		if (count === 0) break;
		done += count;
	}

	return buffer.subarray(0, done);
}

/** One worker, and the batches it posted that the main thread has not taken yet, by chunk. */
class ChunkWorker {
	readonly #worker: Worker;
	readonly #batches = new Map<number, Batch[]>();
	#ended = false;
	#wake: (() => void) | undefined;

	get ended(): boolean {
		return this.#ended;
	}

	constructor(module: URL, setup: ChunkWorkerSetup) {
		this.#worker = new Worker(module, {workerData: setup, resourceLimits: workerResourceLimits});
		// A chunk worker posts only lines (protocol.ts).
		this.#worker.on('message', ({batch}: ChunkWorkerMessage) => {
			const waiting = this.#batches.get(batch.chunk);
			if (waiting) waiting.push(batch);
			else this.#batches.set(batch.chunk, [batch]);
			this.#wakeUp();
		});
		// A worker that fails (even one that cannot start) only costs speed: its chunks are read on the main thread.
		this.#worker.on('error', () => {
			this.#ended = true;
			this.#wakeUp();
		});
		this.#worker.on('exit', () => {
			this.#ended = true;
			this.#wakeUp();
		});
	}

	/**
	 * Feeds the chunk's items as they arrive. 'done' once all are fed; if the worker ended before, where the
	 * rest of the chunk starts (undefined if it delivered none of it).
	 */
	async deliver(chunk: number, feed: (batch: Batch) => void): Promise<'done' | LinePosition | undefined> {
		let next: LinePosition | undefined;
		for (;;) {
			const batch = this.#batches.get(chunk)?.shift();
			if (batch) {
				feed(batch);
				next = batch.next;
				if (batch.done) {
					this.#batches.delete(chunk);
					return 'done';
				}

				continue;
			}

			if (this.#ended) return next;
			await new Promise<void>(resolve => {
				this.#wake = resolve;
			});
		}
	}

	async stop(): Promise<void> {
		await this.#worker.terminate();
	}

	#wakeUp(): void {
		const wake = this.#wake;
		this.#wake = undefined;
		wake?.();
	}
}
