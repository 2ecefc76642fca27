// 4-6. The benchmark's viewer sections (bench/bench.mjs), in a pseudo-terminal (tmux, bench/bench-terminal.mjs):
// the viewer while events stream in at a fixed rate (CPU and frames), the large log's load (first screen and full
// load, each paired with a headless load), and keys answered during the load.
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {figure, median, ms, quote, round, sleep} from './bench-kit.mjs';
import {Terminal, frameStart} from './bench-terminal.mjs';

const clockTicks = Number(spawnSync('getconf', ['CLK_TCK'], {encoding: 'utf8'}).stdout.trim()) || 100;

/** CPU time (all threads) of a process so far, from /proc. */
function processCpuMs(pid) {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

function countOccurrences(bytes, text) {
	const needle = Buffer.from(text);
	let count = 0;
	for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length)) count++;
	return count;
}

async function measureStreaming({quick, dir, node, cli, repo, hook, feeder}) {
	const rate = 5000;
	const seconds = quick ? 3 : 10;
	const pidFile = join(dir, 'viewer.pid');
	const goFile = join(dir, 'stream.go');
	const doneFile = join(dir, 'stream.done');
	const feed = `${quote(node)} ${quote(feeder)} --rate ${rate} --seconds ${seconds} --runs 10 --go ${quote(goFile)} --done ${quote(doneFile)}`;
	const viewer = `PERSCOPE_BENCH_PIDFILE=${quote(pidFile)} ${quote(node)} --import ${quote(hook)} ${quote(cli)}`;
	const terminal = new Terminal('stream', `cd ${quote(repo)} && ${feed} | ${viewer}`, join(dir, 'tui-stream.out'));
	try {
		await terminal.start();
		// The viewer is up once it has drawn the runs' starts.
		if ((await terminal.waitForOutput('perscope', 15_000)) === undefined) throw new Error('the viewer never drew a screen');
		await sleep(1000);
		const pid = Number(readFileSync(pidFile, 'utf8'));
		const cpuBefore = processCpuMs(pid);
		const framesBefore = countOccurrences(terminal.output(), frameStart);
		const startedAt = performance.now();
		writeFileSync(goFile, '');
		while (!existsSync(doneFile)) await sleep(20);
		const cpuAfter = processCpuMs(pid);
		const elapsedMs = performance.now() - startedAt;
		const frames = countOccurrences(terminal.output(), frameStart) - framesBefore;
		const fed = JSON.parse(readFileSync(doneFile, 'utf8'));
		return {
			rate,
			seconds,
			events: fed.events,
			cpuPercent: round((100 * (cpuAfter - cpuBefore)) / elapsedMs, 1),
			frames,
			framesPerSecond: round((frames * 1000) / elapsedMs, 1),
		};
	} finally {
		terminal.kill();
	}
}

async function measureLoad({dir, node, cli, repo}, log, run) {
	const terminal = new Terminal('load', `cd ${quote(repo)} && ${quote(node)} ${quote(cli)} ${quote(log)}`, join(dir, `tui-load-${run}.out`));
	try {
		const started = await terminal.start();
		// The first screen is the line the CLI writes before the views are loaded; the first frame is the views' own,
		// what bench-viewer-shapes.mjs times as a shape's first screen.
		const first = await terminal.waitForOutput('perscope', 30_000);
		const frame = await terminal.waitForFrame(() => true, 30_000);
		const loaded = await terminal.waitForOutput(' · ended', 120_000);
		return {
			firstScreenMs: first === undefined ? null : round(first - started),
			firstFrameMs: frame === undefined ? null : round(frame.at - started),
			fullLoadMs: loaded === undefined ? null : round(loaded - started),
		};
	} finally {
		terminal.kill();
	}
}

/**
 * Presses `?` again and again while the large file loads: it opens the help, then closes it. A press is
 * answered by the first whole frame after it that shows the help (opening) or no longer shows it (closing).
 * Ink writes each frame whole between synchronized-update markers, so a frame tells the state it shows.
 */
async function measureKeysDuringLoad({dir, node, cli, repo}, log, run) {
	const terminal = new Terminal('keys', `cd ${quote(repo)} && ${quote(node)} ${quote(cli)} ${quote(log)}`, join(dir, `tui-keys-${run}.out`));
	const ended = ' · ended';
	const help = 'expand all / collapse all';
	const samples = [];
	try {
		await terminal.start();
		// A small log (--quick, a fast machine) may be read before the viewer draws its progress.
		if ((await terminal.waitForOutput(['loading ', ended], 30_000)) === undefined) throw new Error('the viewer never showed the load');
		let helpOpen = false;
		while (samples.length < 20 && !terminal.output().includes(ended)) {
			const from = terminal.output().length;
			const sent = terminal.keys('?');
			const wanted = !helpOpen;
			const answer = await terminal.waitForFrame(frame => frame.includes(help) === wanted, 5000, from);
			if (answer === undefined) throw new Error('a key during the load was never answered');
			// Only presses answered before the load ended count.
			if (answer.frame.includes(ended)) break;
			samples.push(answer.at - sent);
			helpOpen = wanted;
			// A person's key presses are some way apart; so are these.
			await sleep(40);
		}
	} finally {
		terminal.kill();
	}

	return samples;
}

/** The viewer's sections on `log`; `bench` as in bench-headless.mjs, with {repo, hook, feeder, loadRuns}. */
export async function measureTui(bench, log) {
	const {quick, loadRuns, cli, summary, measureNode} = bench;
	const stream = await measureStreaming(bench);
	summary.tuiStream = stream;
	figure(`TUI at ${stream.rate} events/s for ${stream.seconds} s: CPU`, `${stream.cpuPercent}% of one core  (target ≤ 30%)`);
	figure(`TUI at ${stream.rate} events/s: frames written`, `${stream.framesPerSecond}/s (${stream.frames} frames)  (target ≤ 30/s)`);
	// Each load in the viewer is paired with a headless load run just before it, and the ratio is the median
	// of the pairs' ratios: a single load, or a headless time taken minutes earlier, moves with whatever else
	// the machine is doing. One pair's ratio can be 0.2 off the others on a VM, so there are at least nine.
	const loads = [];
	for (let run = 0; run < loadRuns; run++) {
		const headless = measureNode(cli, ['--summary', '--json', log]);
		const load = await measureLoad(bench, log, run);
		loads.push({...load, headlessMs: headless.wallMs});
	}

	const drawn = loads.filter(load => load.firstScreenMs !== null && load.fullLoadMs !== null);
	summary.tuiLoad =
		drawn.length === 0
			? {runs: loadRuns, firstScreenMs: null, firstFrameMs: null, fullLoadMs: null, headlessMs: null, ratioToHeadless: null}
			: {
					runs: loadRuns,
					firstScreenMs: round(median(drawn.map(load => load.firstScreenMs))),
					firstFrameMs: drawn.some(load => load.firstFrameMs === null) ? null : round(median(drawn.map(load => load.firstFrameMs))),
					fullLoadMs: round(median(drawn.map(load => load.fullLoadMs))),
					headlessMs: round(median(drawn.map(load => load.headlessMs))),
					ratioToHeadless: round(median(drawn.map(load => load.fullLoadMs / load.headlessMs)), 2),
					ratios: drawn.map(load => round(load.fullLoadMs / load.headlessMs, 2)),
				};
	if (drawn.length < loads.length) process.exitCode = 1;
	const load = summary.tuiLoad;
	figure(
		`TUI time to first screen (median of ${loadRuns})`,
		load.firstScreenMs === null
			? 'never'
			: `${ms(load.firstScreenMs)}, the views' first frame ${load.firstFrameMs === null ? 'never' : ms(load.firstFrameMs)}  (target ≤ 300 ms, for the first screen)`,
	);
	figure(
		`TUI full load / headless load (median of ${loadRuns} pairs)`,
		load.fullLoadMs === null
			? 'never'
			: `${ms(load.fullLoadMs)} / ${ms(load.headlessMs)} = ${load.ratioToHeadless} (pairs: ${load.ratios.join(', ')})  (target ≤ 1.5)`,
	);
	// The slowest presses are the first after the viewer appears: several loads, so one lucky one does not decide.
	const keyRuns = quick ? 1 : 3;
	const maxima = [];
	const presses = [];
	for (let run = 0; run < keyRuns; run++) {
		const samples = await measureKeysDuringLoad(bench, log, run);
		presses.push(...samples);
		if (samples.length > 0) maxima.push(round(Math.max(...samples)));
	}

	const keys = {
		loads: keyRuns,
		presses: presses.length,
		medianMs: presses.length === 0 ? null : round(median(presses)),
		maxMs: presses.length === 0 ? null : round(Math.max(...presses)),
		maxPerLoad: maxima,
	};
	summary.keysDuringLoad = keys;
	figure(
		`TUI keys answered during the load (${keyRuns} loads)`,
		keys.presses === 0
			? 'no press answered before the load ended'
			: `median ${ms(keys.medianMs)}, max ${ms(keys.maxMs)} (per load: ${maxima.join(', ')} ms) over ${keys.presses} presses  (target ≤ 100 ms)`,
	);
}
