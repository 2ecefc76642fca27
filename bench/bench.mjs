#!/usr/bin/env node
// perscope's benchmark (issue 6): `npm run bench` builds, then runs this. Seeded and repeatable; one run
// measures, side by side on the same generated log:
//   1. the baseline: split2 + JSON.parse of every line (bench/bench-baseline.mjs), nothing else;
//   2. `perscope --summary --json FILE` (full load and reduction), alternating with the baseline;
//   3. `lnav -n -q FILE` (indexing, with a JSON format for Perstack events in a temporary HOME), if installed;
//   4. the TUI in a real pseudo-terminal (tmux) while events stream in at a fixed rate: CPU (% of one core,
//      from /proc/<pid>/stat) and frames written per second (Ink's synchronized-update markers);
//   5. the TUI on the large file: time to first screen and to a fully loaded screen, each load paired with
//      a headless load just before it (the ratio is the median of the pairs'; at least 9 pairs);
//   6. the TUI answering keys while the large file loads (three loads): `?` opens and closes the help, and
//      each press is timed from the key sent until a frame showing its answer arrives (median and max).
// The terminal's output reaches this script through a named pipe as it is written, so waiting for a screen
// costs it no CPU that the viewer being measured could have used.
// It prints one line per figure and ends with one JSON line holding them all.
//
//   7. the soak (issue #33, bench/bench-soak.mjs): the viewer reading a live stream of 2,000,000 events through a
//      pipe, keys pressed and the terminal resized as it goes, then the stream quiet: memory after warm-up and at
//      the end beside what the model alone keeps, CPU per 1,000 events, frames/s, CPU once quiet, the longest key.
//
//   node bench/bench.mjs [--quick] [--no-big] [--runs N] [--seed N] [--keep] [--no-tui] [--no-shapes] [--no-dialects] [--only-dialects] [--no-soak]
//
//   --quick   a ~10 MB log, 3 runs each, a 3 s stream: a smoke test that takes seconds
//   --no-big  skip the ~1 GB log (peak RSS and time of headless `--summary` on it; generating it takes
//             ~5-10 s); --quick skips it too
//   --keep    keep the temporary directory (logs, screen captures)
//   --no-shapes  skip the hostile shapes (issue #22: a 20,000-deep delegation chain, a ring, 200,000 runs in
//             one job, one run of 500,000 exec calls; headless `--summary --json` time and peak RSS of each;
//             and in the viewer, chains of 20,000 and 100,000 runs, 200,000 runs in one job and 500,000 exec
//             calls: first screen, load, keys during and after the load, bench/bench-viewer-shapes.mjs; and
//             #33's 20,000 small jobs, ~1.75 GB (--quick: 200), headless and the viewer's peak RSS)
//   --no-soak  skip the soak (~10 minutes; --quick streams ~110,000 events); `node bench/bench-soak.mjs` runs it alone
//   --no-dialects  skip the agent CLIs' streams (issue #36: ~40 MB each of Claude Code, Codex and Gemini CLI,
//             generate-log --dialect; headless `--summary --json` against the baseline, target ≤ 1.5)
//   --only-dialects  only those streams (with --quick, ~2 MB each), then the summary line
//
// Peak RSS and CPU time come from bench/bench-hook.mjs, preloaded into each measured node process.
// Ratios are medians of per-pair ratios (each pair run back to back), which holds up better than a ratio
// of medians when other work on the machine comes and goes; the load average is printed for that reason.
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {cpus, loadavg, tmpdir, totalmem} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {generateLog, measureBig, measureDialects, measureHeadless, measureManyJobs, measureShapes} from './bench-headless.mjs';
import {figure, hasCommand, measureCommand, median, nodeMeasurer, round} from './bench-kit.mjs';
import {dialectsMet, finish, targetsOf} from './bench-report.mjs';
import {measureSoak} from './bench-soak.mjs';
import {measureTui} from './bench-tui.mjs';
import {measureViewerPeak, measureViewerShapes} from './bench-viewer-shapes.mjs';

// The sections live beside this file: bench-headless.mjs (the agent CLIs' streams, the log, the ~1 GB log, the
// shapes), bench-tui.mjs (the viewer), bench-viewer-shapes.mjs and bench-soak.mjs; bench-report.mjs ends the run.

const {values: flags} = parseArgs({
	options: {
		quick: {type: 'boolean', default: false},
		'no-big': {type: 'boolean', default: false},
		runs: {type: 'string'},
		seed: {type: 'string', default: '1'},
		keep: {type: 'boolean', default: false},
		'no-tui': {type: 'boolean', default: false},
		'no-shapes': {type: 'boolean', default: false},
		'no-dialects': {type: 'boolean', default: false},
		'only-dialects': {type: 'boolean', default: false},
		'no-soak': {type: 'boolean', default: false},
		help: {type: 'boolean', short: 'h', default: false},
	},
});
if (flags.help) {
	process.stdout.write(
		readFileSync(fileURLToPath(import.meta.url), 'utf8')
			.split('\nimport ')[0]
			.replace(/^#!.*\n/, '')
			.replaceAll(/^\/\/ ?/gm, ''),
	);
	process.exit(0);
}

const repo = fileURLToPath(new URL('..', import.meta.url));
const cli = join(repo, 'dist/bin/perscope.js');
const generator = join(repo, 'build/tools/generate-log.js');
for (const path of [cli, generator]) {
	if (!existsSync(path)) {
		process.stderr.write(`bench: ${path} is missing; run \`npm run build\` first (npm run bench does)\n`);
		process.exit(1);
	}
}

const quick = flags.quick;
const runs = Number(flags.runs ?? (quick ? 3 : 5));
const dir = mkdtempSync(join(tmpdir(), 'perscope-bench-'));
const node = process.execPath;
const hook = join(repo, 'bench/bench-hook.mjs');
/** What every section shares; each writes its figures into `summary`. */
const bench = {
	quick,
	runs,
	/** Loads of the large file in the viewer, each paired with a headless one. */
	loadRuns: quick ? runs : Math.max(runs, 9),
	seed: flags.seed,
	keep: flags.keep,
	dir,
	node,
	repo,
	cli,
	generator,
	hook,
	baselineScript: join(repo, 'bench/bench-baseline.mjs'),
	feeder: join(repo, 'bench/bench-feed.mjs'),
	summary: {},
	figure,
	measureNode: nodeMeasurer({node, hook, dir}),
};
const {summary} = bench;

// ---------------------------------------------------------------------------------------------------------
// Machine

const cpuList = cpus();
summary.machine = {
	cpu: cpuList[0]?.model ?? 'unknown',
	cores: cpuList.length,
	memoryGB: round(totalmem() / 1024 ** 3, 1),
	node: process.version,
	loadAverageAtStart: round(loadavg()[0], 2),
};
figure('machine', `${summary.machine.cores} × ${summary.machine.cpu}, ${summary.machine.memoryGB} GB, node ${process.version}`);
figure(
	'load average (1 min) at start',
	`${summary.machine.loadAverageAtStart}${loadavg()[0] > cpuList.length * 0.5 ? '  (busy machine: figures will be noisy)' : ''}`,
);

// Every figure with a process start in it (first screens, short loads) carries Node's own start, and the
// environment can make that much longer: where NODE_EXTRA_CA_CERTS is set (this project's machine sets it), Node 20
// parses that file and its own root certificates before any script runs. The runs below keep the environment they
// are given, as a user's would; this says what a bare start costs in it.
function bareStartMs(env) {
	const times = [];
	for (let run = 0; run < 5; run++) times.push(measureCommand(node, ['-e', '0'], env).wallMs);
	return round(median(times));
}
summary.machine.nodeStartMs = bareStartMs({});
// An undefined value leaves the variable out of the child's environment.
const withoutExtraCaCerts = process.env.NODE_EXTRA_CA_CERTS === undefined ? undefined : bareStartMs({NODE_EXTRA_CA_CERTS: undefined});
summary.machine.nodeStartWithoutExtraCaCertsMs = withoutExtraCaCerts;
figure(
	'a bare Node start (`node -e 0`, median of 5)',
	withoutExtraCaCerts === undefined
		? `${summary.machine.nodeStartMs} ms`
		: `${summary.machine.nodeStartMs} ms with NODE_EXTRA_CA_CERTS set, as here (${withoutExtraCaCerts} ms without)`,
);

// ---------------------------------------------------------------------------------------------------------
// The sections, in order

if (!flags['no-dialects'] || flags['only-dialects']) measureDialects(bench);
if (flags['only-dialects']) {
	finish(bench, () => ({dialects: dialectsMet(summary)}));
	process.exit();
}

const log = generateLog(bench);
measureHeadless(bench, log);

const tuiAvailable = !flags['no-tui'] && hasCommand('tmux', ['-V']) && existsSync('/proc/self/stat');
if (tuiAvailable) await measureTui(bench, log);
else {
	summary.tuiStream = null;
	summary.tuiLoad = null;
	summary.keysDuringLoad = null;
	figure('TUI', flags['no-tui'] ? 'skipped (--no-tui)' : 'skipped: needs tmux and /proc');
}

if (!flags['no-big'] && !quick) measureBig(bench);
if (!flags['no-shapes']) measureShapes(bench);
// The viewer on hostile shapes (issue #22): first screen, load, and keys during and after the load
// (bench/bench-viewer-shapes.mjs, which also runs on its own).
if (!flags['no-shapes'] && tuiAvailable) summary.viewerShapes = await measureViewerShapes(bench);
// Many small jobs (issue #33 §2): headless peak RSS, then the viewer's on the same log.
if (!flags['no-shapes']) {
	const manyJobsLog = measureManyJobs(bench);
	if (tuiAvailable) {
		const viewer = await measureViewerPeak({...bench, path: manyJobsLog, capture: join(dir, 'viewer-many-jobs.out')});
		summary.manyJobs.viewerPeakRssMB = viewer.peakRssMb;
		summary.manyJobs.viewerLoadMs = viewer.loadMs;
		const times = viewer.peakRssMb === null ? '' : ` (${round(viewer.peakRssMb / summary.manyJobs.peakRssMB, 2)} × headless)`;
		figure(
			'many jobs: the viewer, loaded in / peak RSS',
			`${viewer.loadMs ?? 'never'} ms / ${viewer.peakRssMb ?? '–'} MB${times}  (#33 target: ≤ 2 × headless)`,
		);
	}

	rmSync(manyJobsLog, {force: true});
}

// A day in the viewer (issue #33): a live stream of 2,000,000 events, keys and resizes, then quiet
// (bench/bench-soak.mjs, which also runs on its own).
if (!flags['no-soak'] && tuiAvailable) summary.soak = await measureSoak(bench);

finish(bench, targetsOf);
