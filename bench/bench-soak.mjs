#!/usr/bin/env node
// A day in the viewer (issue #33): the viewer, in a real terminal (tmux), reads a live stream through a pipe
// (bench/bench-soak-feed.mjs: the generator's realistic jobs, ~2,700 events each, one after another) for the
// equivalent of a busy agent's day, time-compressed: 2,000,000 events at up to 10,000 a second. While it
// follows, a key is pressed every 2 s (moves that pause and resume following, folds, fold all and unfold all,
// a search typed key by key and cleared, a filter entered and cleared, the errors filter, help), each timed
// from the key sent to the first frame that shows its answer; every 12th action resizes the terminal instead.
// It reports:
//   - the viewer's RSS and heap (main thread, after a full collection: what it keeps) after warm-up, every
//     tenth of the stream, at its end and after the quiet; beside them what the model alone keeps of the same
//     events (bench/bench-soak-model.mjs, in a process of its own), as bytes per activity and per run;
//   - CPU time per 1,000 events while the stream runs, frames per second;
//   - the CPU after the stream goes quiet (the input still open, every run ended): it must fall to ~0;
//   - the longest key, in the first tenth of the stream and in the last, and after it.
// Targets: the viewer's heap grows from warm-up to the end by at most 1.5 × what the model's does (+ 16 MB);
// CPU when quiet ≤ 1 % of a core; every key ≤ 100 ms, at the end as at the start.
//
//   node bench/bench-soak.mjs [--quick] [--events N] [--rate N] [--seed N] [--keep] [--cli dist/bin/perscope.js]
//                             [--node-args='--cpu-prof --cpu-prof-dir=DIR']  (options for the viewer's node)
//
// `npm run bench` runs it as a section (skip it with --no-soak); `--quick` streams ~110,000 events.
import {spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {StringDecoder} from 'node:string_decoder';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {Terminal, frameEnd, frameStart} from './bench-terminal.mjs';

export const soakKeyTargetMs = 100;
/** CPU while nothing is live and nothing arrives, in % of one core. */
export const soakQuietCpuTarget = 1;
/** The viewer's heap growth against the model's over the same events, and what it may add to it. */
export const soakHeapFactor = 1.5;
export const soakHeapSlackMb = 16;

/** One job of the stream: ~2,730 events (60 coordinator steps around a delegation to two experts of 20 steps each). */
const eventsPerJob = 2731;
const jobArgs = ['--steps', '60', '--children', '2', '--deltas', '20', '--message-bytes', '120', '--no-histories'];

const sleep = milliseconds => new Promise(resolve => setTimeout(resolve, milliseconds));
const round = (value, digits = 0) => Number(value.toFixed(digits));
const mb = bytes => round(bytes / 1024 / 1024, 1);
const quote = text => `'${text.replaceAll("'", "'\\''")}'`;
/** A frame's text without its escape sequences (colours, cursor moves), to look for words in. */
const textOf = frame => frame.replaceAll(/\u001B\[[0-9;?]*[A-Za-z]/g, '');

/**
 * The frames a terminal receives, read as they come and not kept: the last one's text, how many came, and
 * waiters for a frame that passes a test.
 */
class Frames {
	count = 0;
	last = '';
	#decoder = new StringDecoder('utf8');
	#pending = '';
	#waiters = new Set();

	take(chunk) {
		this.#pending += this.#decoder.write(chunk);
		for (;;) {
			const start = this.#pending.indexOf(frameStart);
			const end = start === -1 ? -1 : this.#pending.indexOf(frameEnd, start);
			if (end === -1) break;
			const frame = textOf(this.#pending.slice(start + frameStart.length, end));
			this.#pending = this.#pending.slice(end + frameEnd.length);
			this.count++;
			this.last = frame;
			const at = performance.now();
			for (const waiter of this.#waiters) {
				if (waiter.test(frame)) {
					this.#waiters.delete(waiter);
					waiter.resolve(at);
				}
			}
		}

		// Output between frames (a terminal query, a cursor move) is never a frame's start: keep only what may be.
		const open = this.#pending.lastIndexOf(frameStart);
		this.#pending = open === -1 ? this.#pending.slice(-frameStart.length) : this.#pending.slice(open);
	}

	/** The time of the first frame from now on that passes `test`, or undefined after `timeoutMs`. */
	next(test, timeoutMs) {
		return new Promise(resolve => {
			const waiter = {test, resolve};
			this.#waiters.add(waiter);
			setTimeout(() => {
				if (this.#waiters.delete(waiter)) resolve(undefined);
			}, timeoutMs);
		});
	}
}

/**
 * The actions, in a cycle. Each is keys and the test a frame passes once it shows their answer. The footer says
 * `● follow` while following; a pane folded is `▸`, unfolded `▾`; the prompt shows what is typed.
 */
const search = 'vitest';
const filter = 'type:exec';
const actions = [
	{name: 'k (pause follow)', keys: ['k'], shows: frame => frame.includes('○ paused')},
	{name: 'E (fold all)', keys: ['E'], shows: frame => !frame.includes('▾')},
	{name: 'e (unfold all)', keys: ['e'], shows: frame => frame.includes('▾')},
	{name: 'G (follow)', keys: ['G'], shows: frame => frame.includes('● follow')},
	{name: '/', keys: ['/'], shows: frame => /^\/\s*$/m.test(frame) || frame.includes('/ ')},
	...[...search].map((key, at) => ({
		name: `search "${search.slice(0, at + 1)}"`,
		keys: ['-l', key],
		shows: frame => frame.includes(`/${search.slice(0, at + 1)}`),
	})),
	{name: 'search Enter', keys: ['Enter'], shows: frame => /matches|no match/.test(frame)},
	{name: 'n', keys: ['n'], shows: () => true},
	{name: 'Escape (clear search)', keys: ['Escape'], shows: frame => !frame.includes(`/${search}`)},
	{name: 'G (follow again)', keys: ['G'], shows: frame => frame.includes('● follow')},
	{name: ':', keys: [':'], shows: frame => /^:/m.test(frame)},
	{name: 'filter typed', keys: ['-l', filter], shows: frame => frame.includes(`:${filter}`)},
	{name: 'filter Enter', keys: ['Enter'], shows: frame => frame.includes(`filter: ${filter}`)},
	{name: 'C (clear filters)', keys: ['C'], shows: frame => !frame.includes('filter: ')},
	{name: 'x (errors)', keys: ['x'], shows: frame => frame.includes('filter: errors')},
	{name: 'x (errors off)', keys: ['x'], shows: frame => !frame.includes('filter: ')},
	{name: '? (help)', keys: ['?'], shows: frame => frame.includes('expand all / collapse all')},
	{name: '? (help closed)', keys: ['?'], shows: frame => !frame.includes('expand all / collapse all')},
	{name: 'G (follow, last)', keys: ['G'], shows: frame => frame.includes('● follow')},
];
const sizes = [
	[120, 40],
	[200, 60],
	[80, 24],
	[160, 48],
];

/** clock ticks of /proc/<pid>/stat */
const clockTicks = Number(spawnSync('getconf', ['CLK_TCK'], {encoding: 'utf8'}).stdout.trim()) || 100;

function processCpuMs(pid) {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

function readJson(path) {
	try {
		return JSON.parse(readFileSync(path, 'utf8'));
	} catch {
		return undefined;
	}
}

/** Runs the soak; calls `figure(label, value)` for each figure and returns them all. */
export async function measureSoak({quick = false, events, rate, seed = '1', dir, cli, node, nodeArgs = '', repo, generator, figure}) {
	const wanted = events ?? (quick ? 110_000 : 2_000_000);
	const jobs = Math.max(2, Math.ceil(wanted / eventsPerJob));
	const perSecond = rate ?? 10_000;
	const log = join(dir, 'soak.ndjson');
	const generating = performance.now();
	const made = spawnSync(node, [generator, '--seed', String(seed), '--jobs', String(jobs), ...jobArgs, '--out', log], {encoding: 'utf8'});
	if (made.status !== 0) throw new Error(`generate-log failed: ${made.stderr.slice(0, 2000)}`);
	figure('soak: log', `${made.stderr.trim().replace(/^generate-log: /, '')} (made in ${round((performance.now() - generating) / 1000, 1)} s)`);
	const files = {
		pid: join(dir, 'soak.pid'),
		memory: join(dir, 'soak.memory'),
		go: join(dir, 'soak.go'),
		status: join(dir, 'soak.status'),
		close: join(dir, 'soak.close'),
	};
	const hook = join(repo, 'bench/bench-hook.mjs');
	const feeder = join(repo, 'bench/bench-soak-feed.mjs');
	const feed = `${quote(node)} ${quote(feeder)} --rate ${perSecond} --go ${quote(files.go)} --status ${quote(files.status)} --close ${quote(files.close)} ${quote(log)}`;
	const viewer = `PERSCOPE_BENCH_PIDFILE=${quote(files.pid)} PERSCOPE_BENCH_MEMORY=${quote(files.memory)} ${quote(node)} --expose-gc ${nodeArgs} --import ${quote(hook)} ${quote(cli)}`;
	const frames = new Frames();
	const terminal = new Terminal('soak', `cd ${quote(repo)} && ${feed} | ${viewer}`, join(dir, 'soak.out'), {
		keepOutput: false,
		onData: chunk => frames.take(chunk),
	});
	const result = {jobs, rate: perSecond, samples: [], keys: [], unanswered: [], resizes: 0};
	let pid;
	/** Asks the viewer for its memory (it collects garbage first) and waits for the answer. */
	const memorySample = async label => {
		const before = existsSync(files.memory) ? readFileSync(files.memory, 'utf8').split('\n').filter(Boolean).length : 0;
		const events = readJson(files.status)?.events ?? 0;
		const cpuMs = processCpuMs(pid);
		process.kill(pid, 'SIGUSR2');
		for (let waited = 0; waited < 30_000; waited += 20) {
			const lines = existsSync(files.memory) ? readFileSync(files.memory, 'utf8').split('\n').filter(Boolean) : [];
			if (lines.length > before) {
				const memory = JSON.parse(lines.at(-1));
				const sample = {
					label,
					events,
					at: performance.now(),
					cpuMs,
					frames: frames.count,
					rss: memory.rss,
					heapUsed: memory.heapUsed,
					heapTotal: memory.heapTotal,
					external: memory.external,
					gcMs: round(memory.gcMs),
				};
				result.samples.push(sample);
				return sample;
			}

			await sleep(20);
		}

		throw new Error('the viewer never wrote its memory');
	};

	let action = 0;
	/** The next action: its keys sent, its answer awaited. */
	const act = async () => {
		const index = action++;
		if (index % 12 === 11) {
			const [width, height] = sizes[result.resizes++ % sizes.length];
			const from = frames.count;
			const sent = performance.now();
			terminal.resize(width, height);
			const at = await frames.next(() => frames.count > from, 5000);
			result.keys.push({name: `resize ${width}×${height}`, events: readJson(files.status)?.events ?? 0, ms: at === undefined ? null : round(at - sent)});
			return;
		}

		const {name, keys, shows} = actions[index % actions.length];
		const answered = frames.next(shows, 10_000);
		const sent = terminal.keys(...keys);
		const at = await answered;
		const entry = {name, events: readJson(files.status)?.events ?? 0, ms: at === undefined ? null : round(at - sent)};
		result.keys.push(entry);
		if (at === undefined) result.unanswered.push(`${name} at ${entry.events} events`);
	};

	try {
		await terminal.start();
		if ((await frames.next(() => true, 30_000)) === undefined) throw new Error('the viewer never drew a frame');
		for (let waited = 0; !existsSync(files.pid) && waited < 10_000; waited += 20) await sleep(20);
		pid = Number(readFileSync(files.pid, 'utf8'));
		// The first key the viewer gets can be lost (the terminal may still be answering a query): one not measured.
		terminal.keys('G');
		await sleep(500);
		writeFileSync(files.go, '');
		const startedAt = performance.now();
		const cpuAtStart = processCpuMs(pid);
		const framesAtStart = frames.count;
		// Memory every tenth of the stream, the first (warm-up) once a twentieth is in.
		const marks = [0.05, ...Array.from({length: 9}, (_, tenth) => (tenth + 1) / 10)].map(share => Math.round(share * jobs * eventsPerJob));
		// The first key waits for the stream's first events on screen: `k` on an empty tree has nothing to move from,
		// and a key pressed before any event came was counted as never answered.
		let status = readJson(files.status);
		for (let waited = 0; (status?.events ?? 0) === 0 && waited < 10_000; waited += 20) {
			await sleep(20);
			status = readJson(files.status);
		}

		await frames.next(() => true, 2000);
		while (!status?.done) {
			await act();
			await sleep(2000);
			status = readJson(files.status);
			if (marks.length > 0 && (status?.events ?? 0) >= marks[0]) {
				while (marks.length > 0 && (status?.events ?? 0) >= marks[0]) marks.shift();
				await memorySample(result.samples.length === 0 ? 'warm-up' : `${status.events} events`);
				// The collection just forced held the viewer up: the next key should not measure it.
				await sleep(1000);
			}
		}

		const streamedMs = performance.now() - startedAt;
		const end = await memorySample('end of the stream');
		result.events = status.events;
		result.streamSeconds = round(streamedMs / 1000, 1);
		result.eventsPerSecond = round(status.events / (streamedMs / 1000));
		result.cpuMsPer1000Events = round(((end.cpuMs - cpuAtStart) * 1000) / status.events, 1);
		result.cpuPercent = round((100 * (end.cpuMs - cpuAtStart)) / streamedMs, 1);
		result.framesPerSecond = round(((end.frames - framesAtStart) * 1000) / streamedMs, 1);
		// The keys once more, the stream over: as fast as at the start?
		const keysBeforeEnd = result.keys.length;
		for (let index = 0; index < actions.length; index++) {
			await act();
			await sleep(300);
		}

		result.keysAfter = result.keys.slice(keysBeforeEnd);
		// Quiet: every run has ended and nothing arrives, the input still open. Let the last frames go out first.
		await terminal.keys('G');
		await sleep(3000);
		const quietCpu = processCpuMs(pid);
		const quietFrames = frames.count;
		const quietSeconds = quick ? 5 : 10;
		await sleep(quietSeconds * 1000);
		result.quietCpuPercent = round((100 * (processCpuMs(pid) - quietCpu)) / (quietSeconds * 1000), 2);
		result.quietFrames = frames.count - quietFrames;
		result.quietSeconds = quietSeconds;
		await memorySample('after the quiet');
	} finally {
		writeFileSync(files.close, '');
		await sleep(500);
		terminal.keys('q');
		await sleep(500);
		// A viewer given node options (a --cpu-prof) writes its files as it exits: give it the time, up to a minute.
		for (let waited = 0; nodeArgs !== '' && pid !== undefined && waited < 60_000 && isAlive(pid); waited += 100) await sleep(100);
		terminal.kill();
	}

	// The model alone, fed the same events, sampled where the viewer was.
	const warm = result.samples[0];
	const endSample = result.samples.find(sample => sample.label === 'end of the stream');
	const reference = spawnSync(node, ['--expose-gc', join(repo, 'bench/bench-soak-model.mjs'), '--dist', join(cli, '../..'), '--at', String(warm.events), log], {
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	});
	rmSync(log, {force: true});
	if (reference.status !== 0) throw new Error(`bench-soak-model failed: ${reference.stderr.slice(0, 2000)}`);
	const [modelWarm, modelEnd] = JSON.parse(reference.stdout).samples;
	const activities = modelEnd.activities - modelWarm.activities;
	const runs = modelEnd.runs - modelWarm.runs;
	result.model = {
		warm: modelWarm,
		end: modelEnd,
		heapGrowthMb: mb(modelEnd.heapUsed - modelWarm.heapUsed),
		bytesPerActivity: round((modelEnd.heapUsed - modelWarm.heapUsed) / activities),
		activitiesPerRun: round(activities / runs, 1),
	};
	result.heapGrowthMb = mb(endSample.heapUsed - warm.heapUsed);
	result.rssGrowthMb = mb(endSample.rss - warm.rss);
	result.viewerBytesPerActivity = round((endSample.heapUsed - warm.heapUsed) / activities);
	result.heapAllowedMb = round(result.model.heapGrowthMb * soakHeapFactor + soakHeapSlackMb, 1);

	const keyTimes = list => list.filter(key => key.ms !== null).map(key => key.ms);
	const tenth = (result.events ?? 0) / 10;
	const firstTenth = keyTimes(result.keys.filter(key => !result.keysAfter.includes(key) && key.events <= tenth));
	const lastTenth = keyTimes(result.keys.filter(key => !result.keysAfter.includes(key) && key.events >= result.events - tenth));
	const all = keyTimes(result.keys);
	const max = list => (list.length === 0 ? null : Math.max(...list));
	const longest = result.keys.filter(key => key.ms !== null).sort((a, b) => b.ms - a.ms)[0];
	result.maxKeyMs = {
		firstTenth: max(firstTenth),
		lastTenth: max(lastTenth),
		after: max(keyTimes(result.keysAfter)),
		all: max(all),
		longest: longest ? `${longest.name} ${longest.ms} ms at ${longest.events} events` : null,
	};
	result.targets = {
		heap: result.heapGrowthMb <= result.heapAllowedMb,
		quietCpu: result.quietCpuPercent <= soakQuietCpuTarget,
		keys: result.unanswered.length === 0 && (result.maxKeyMs.all ?? Infinity) <= soakKeyTargetMs,
	};

	figure(
		'soak: stream',
		`${result.events} events (${jobs} jobs) in ${result.streamSeconds} s = ${result.eventsPerSecond}/s (asked ${perSecond}/s), ${result.keys.length} keys and resizes`,
	);
	for (const sample of result.samples)
		figure(
			`soak: memory, ${sample.label}`,
			`RSS ${mb(sample.rss)} MB, heap ${mb(sample.heapUsed)} MB of ${mb(sample.heapTotal)} MB, external ${mb(sample.external)} MB (after a collection of ${sample.gcMs} ms), at ${sample.events} events`,
		);
	figure(
		'soak: model alone (same events)',
		`heap ${mb(modelWarm.heapUsed)} → ${mb(modelEnd.heapUsed)} MB, external ${mb(modelWarm.external)} → ${mb(modelEnd.external)} MB from warm-up to end: ${result.model.bytesPerActivity} bytes of heap an activity (${activities} activities, ${result.model.activitiesPerRun} a run)`,
	);
	figure(
		'soak: viewer heap growth, warm-up to end',
		`${result.heapGrowthMb} MB = ${result.viewerBytesPerActivity} bytes an activity, RSS +${result.rssGrowthMb} MB  (target ≤ ${soakHeapFactor} × model + ${soakHeapSlackMb} MB = ${result.heapAllowedMb} MB)`,
	);
	figure(
		'soak: CPU while streaming',
		`${result.cpuMsPer1000Events} ms per 1,000 events (${result.cpuPercent} % of one core), ${result.framesPerSecond} frames/s`,
	);
	figure(
		'soak: CPU once quiet (input open, runs ended)',
		`${result.quietCpuPercent} % of one core over ${result.quietSeconds} s, ${result.quietFrames} frames  (target ≤ ${soakQuietCpuTarget} %)`,
	);
	figure(
		'soak: longest key',
		`${result.maxKeyMs.all ?? '–'} ms (${result.maxKeyMs.longest ?? 'none'}); first tenth ${result.maxKeyMs.firstTenth ?? '–'} ms, last tenth ${result.maxKeyMs.lastTenth ?? '–'} ms, after the stream ${result.maxKeyMs.after ?? '–'} ms${result.unanswered.length > 0 ? `; never answered: ${result.unanswered.join(', ')}` : ''}  (target ≤ ${soakKeyTargetMs} ms)`,
	);
	return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const {values: flags} = parseArgs({
		options: {
			quick: {type: 'boolean', default: false},
			events: {type: 'string'},
			rate: {type: 'string'},
			seed: {type: 'string', default: '1'},
			keep: {type: 'boolean', default: false},
			cli: {type: 'string'},
			// Options for the viewer's node, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof' to see where a late key's time goes.
			'node-args': {type: 'string', default: ''},
		},
	});
	const repo = fileURLToPath(new URL('..', import.meta.url));
	const dir = mkdtempSync(join(tmpdir(), 'perscope-bench-soak-'));
	const figure = (label, value) => process.stdout.write(`${label.padEnd(52)} ${value}\n`);
	const soak = await measureSoak({
		quick: flags.quick,
		...(flags.events ? {events: Number(flags.events)} : {}),
		...(flags.rate ? {rate: Number(flags.rate)} : {}),
		seed: flags.seed,
		dir,
		cli: flags.cli ?? join(repo, 'dist/bin/perscope.js'),
		node: process.execPath,
		nodeArgs: flags['node-args'],
		repo,
		generator: join(repo, 'build/tools/generate-log.js'),
		figure,
	});
	process.stdout.write(JSON.stringify({soak}) + '\n');
	if (flags.keep) process.stdout.write(`kept ${dir}\n`);
	else rmSync(dir, {recursive: true, force: true});
}
