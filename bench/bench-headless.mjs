// The benchmark's headless sections (bench/bench.mjs): the agent CLIs' streams, the log and its reading by the
// baseline, perscope and lnav, the ~1 GB log, and the hostile shapes. Each writes its figures into `summary` and
// prints them. `bench` is what every section shares: {quick, runs, seed, dir, node, cli, generator,
// baselineScript, summary, measureNode}.
import {mkdirSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {figure, hasCommand, mb, measureCommand, median, ms, round} from './bench-kit.mjs';

/** Ingest of an agent CLI's stream, against the baseline on the same file: at most 1.5 times as long. */
export const dialectRatioTarget = 1.5;

/**
 * 0. The agent CLIs' streams (issue #36): each dialect's real recordings played as many sessions
 * (generate-log --dialect), read by the baseline and by `perscope --summary --json`, alternating.
 */
export function measureDialects({quick, runs, dir, node, generator, baselineScript, cli, summary, measureNode}) {
	summary.dialects = {};
	for (const dialect of ['claude-code', 'codex', 'codex-rollout', 'gemini']) {
		const file = join(dir, `${dialect}.jsonl`);
		measureCommand(node, [generator, '--dialect', dialect, '--target-bytes', String(quick ? 2_000_000 : 40_000_000), '--out', file]);
		const dialectPairs = [];
		for (let run = 0; run < runs; run++) {
			const baseline = measureNode(baselineScript, [file], {keepStdout: run === 0});
			const perscope = measureNode(cli, ['--summary', '--json', file], {keepStdout: run === 0});
			dialectPairs.push({baseline, perscope});
		}

		const read = JSON.parse(dialectPairs[0].perscope.stdout);
		const dialectRatio = median(dialectPairs.map(pair => pair.perscope.wallMs / pair.baseline.wallMs));
		const diagnostics = read.diagnosticCount ?? read.diagnostics?.length ?? 0;
		summary.dialects[dialect] = {
			bytes: statSync(file).size,
			events: read.events,
			jobs: read.jobs.length,
			diagnostics,
			baselineMs: round(median(dialectPairs.map(pair => pair.baseline.wallMs))),
			perscopeMs: round(median(dialectPairs.map(pair => pair.perscope.wallMs))),
			peakRssMB: round(Math.max(...dialectPairs.map(pair => pair.perscope.rssBytes)) / 1024 ** 2, 1),
			ratio: round(dialectRatio, 3),
		};
		const figures = summary.dialects[dialect];
		figure(
			`${dialect} stream: --summary --json / baseline`,
			`${mb(figures.bytes)}, ${figures.events} events, ${figures.jobs} sessions, ${diagnostics} diagnostics: ${ms(figures.perscopeMs)} / ${ms(figures.baselineMs)} = ${round(dialectRatio, 2)}, peak RSS ${figures.peakRssMB} MB  (target ≤ ${dialectRatioTarget})`,
		);
	}
}

/**
 * The jobs of the log and of the ~1 GB log: 30 coordinator steps, two delegated children each, 30 deltas per
 * generation, ~420-byte messages.
 */
const jobShape = ['--steps', '30', '--children', '2', '--deltas', '30', '--message-bytes', '420'];

/** 1. The log: its path. */
export function generateLog({quick, seed, dir, node, generator, summary}) {
	const log = join(dir, quick ? 'quick.ndjson' : 'large.ndjson');
	// 42 jobs of 30 coordinator steps, two delegated children each, 30 deltas per generation, ~420-byte
	// messages: about 130 MB and 80,000 events (--quick: 3 jobs, about 10 MB).
	const generatorArgs = ['--seed', seed, '--jobs', quick ? '3' : '42', ...jobShape, '--out', log];
	const generated = measureCommand(node, [generator, ...generatorArgs]);
	const logBytes = statSync(log).size;

	summary.file = {bytes: logBytes, generator: `generate-log ${generatorArgs.slice(0, -2).join(' ')}`, generateMs: round(generated.wallMs)};
	figure('log', `${mb(logBytes)} (${summary.file.generator}), generated in ${ms(generated.wallMs)}`);
	return log;
}

/** A JSON log format for lnav: the timestamp is epoch milliseconds, the body is the event type. */
function writeLnavFormat(home) {
	const format = {
		$schema: 'https://lnav.org/schemas/format-v1.schema.json',
		perstack_event_log: {
			title: 'Perstack events',
			description: 'NDJSON event stream of the Perstack agent runtime, one event per line.',
			json: true,
			'file-pattern': '\\.ndjson$',
			'timestamp-field': 'timestamp',
			'timestamp-divisor': 1000,
			'body-field': 'type',
			'opid-field': 'runId',
			'line-format': [{field: '__timestamp__'}, ' ', {field: 'type'}, ' ', {field: 'expertKey', 'default-value': '-'}],
			value: {
				type: {kind: 'string', identifier: true},
				jobId: {kind: 'string', identifier: true},
				runId: {kind: 'string', identifier: true},
				expertKey: {kind: 'string', identifier: true},
				stepNumber: {kind: 'integer'},
			},
		},
	};
	// lnav 0.11 reads ~/.lnav when it exists, newer ones ~/.config/lnav: give it both.
	for (const config of [join(home, '.lnav'), join(home, '.config', 'lnav')]) {
		mkdirSync(join(config, 'formats', 'installed'), {recursive: true});
		writeFileSync(join(config, 'formats', 'installed', 'perstack.json'), JSON.stringify(format, null, '\t'));
	}
}

/**
 * 2-3. Baseline, perscope and lnav on the log, alternating; then perscope without its fast path, whose output
 * must be the same byte for byte.
 */
export function measureHeadless({runs, dir, cli, baselineScript, summary, measureNode}, log) {
	const lnavAvailable = hasCommand('lnav', ['-V']);
	const lnavHome = join(dir, 'lnav-home');
	if (lnavAvailable) writeLnavFormat(lnavHome);

	const lnavEnv = {HOME: lnavHome, XDG_CONFIG_HOME: join(lnavHome, '.config')};
	let lnavEvents;
	if (lnavAvailable) {
		// The format must be the one lnav uses, or it would index lines as plain text.
		const counted = measureCommand('lnav', ['-n', '-c', ';SELECT count(*) AS n FROM perstack_event_log', log], lnavEnv);
		lnavEvents = Number(counted.stdout.trim().split('\n').pop());
	}

	const perscopeArgs = ['--summary', '--json', log];
	const pairs = [];
	for (let run = 0; run < runs; run++) {
		const baseline = measureNode(baselineScript, [log], {keepStdout: run === 0});
		const perscope = measureNode(cli, perscopeArgs, {keepStdout: run === 0});
		const lnav = lnavAvailable ? measureCommand('lnav', ['-n', '-q', log], lnavEnv) : undefined;
		pairs.push({baseline, perscope, lnav});
	}

	const baselineLines = Number(pairs[0].baseline.stdout.trim());
	const perscopeSummary = JSON.parse(pairs[0].perscope.stdout);
	summary.file.events = perscopeSummary.events;
	figure('events (perscope) / lines (baseline)', `${perscopeSummary.events} / ${baselineLines}`);

	const baselineMs = median(pairs.map(pair => pair.baseline.wallMs));
	const perscopeMs = median(pairs.map(pair => pair.perscope.wallMs));
	const ratio = median(pairs.map(pair => pair.perscope.wallMs / pair.baseline.wallMs));
	const baselineRss = Math.max(...pairs.map(pair => pair.baseline.rssBytes));
	const perscopeRss = Math.max(...pairs.map(pair => pair.perscope.rssBytes));
	summary.baseline = {medianMs: round(baselineMs), peakRssMB: round(baselineRss / 1024 ** 2, 1), cpuMs: round(median(pairs.map(pair => pair.baseline.cpuMs)))};
	summary.perscope = {medianMs: round(perscopeMs), peakRssMB: round(perscopeRss / 1024 ** 2, 1), cpuMs: round(median(pairs.map(pair => pair.perscope.cpuMs)))};
	summary.ratio = round(ratio, 3);
	figure(`baseline split2+JSON.parse (median of ${runs})`, `${ms(baselineMs)}, CPU ${ms(summary.baseline.cpuMs)}, peak RSS ${mb(baselineRss)}`);
	figure(`perscope --summary --json (median of ${runs})`, `${ms(perscopeMs)}, CPU ${ms(summary.perscope.cpuMs)}, peak RSS ${mb(perscopeRss)}`);
	figure('ratio perscope / baseline (median of pairs)', `${round(ratio, 2)}  (target ≤ 0.65)`);
	figure('peak RSS perscope', `${mb(perscopeRss)}  (target ≤ 150 MB on the ~130 MB log)`);

	if (lnavAvailable) {
		const lnavMs = median(pairs.map(pair => pair.lnav.wallMs));
		const lnavRatio = median(pairs.map(pair => pair.perscope.wallMs / pair.lnav.wallMs));
		summary.lnav = {
			medianMs: round(lnavMs),
			events: lnavEvents,
			ratioPerscopeToLnav: round(lnavRatio, 3),
			ratioLnavToBaseline: round(median(pairs.map(pair => pair.lnav.wallMs / pair.baseline.wallMs)), 3),
		};
		figure(
			`lnav -n -q indexing (median of ${runs})`,
			`${ms(lnavMs)} (${lnavEvents} events recognised), ${round(summary.lnav.ratioLnavToBaseline, 2)} × baseline`,
		);
		figure('ratio perscope / lnav (median of pairs)', `${round(lnavRatio, 2)}  (target < 1)`);
	} else {
		summary.lnav = null;
		figure('lnav', 'not installed: skipped (apt-get install lnav to compare)');
	}

	// The same summary without the fast path: the two must agree byte for byte.
	const plain = measureNode(cli, perscopeArgs, {env: {PERSCOPE_FAST: '0'}, keepStdout: true});
	const same = plain.stdout === pairs[0].perscope.stdout;
	summary.plainPath = {ms: round(plain.wallMs), peakRssMB: round(plain.rssBytes / 1024 ** 2, 1), identicalOutput: same};
	figure('perscope without fast path (PERSCOPE_FAST=0)', `${ms(plain.wallMs)}, peak RSS ${mb(plain.rssBytes)}, output ${same ? 'identical' : 'DIFFERENT'}`);
	if (!same) process.exitCode = 1;
}

/** A ~1 GB log: memory must stay bounded by what is shown, not by the bytes read (issue 5). */
export function measureBig({seed, dir, node, cli, generator, summary, measureNode}) {
	const big = join(dir, 'big.ndjson');
	const made = measureCommand(node, [generator, '--seed', seed, '--target-bytes', '1000000000', ...jobShape, '--out', big]);
	const bigBytes = statSync(big).size;
	const result = measureNode(cli, ['--summary', big], {keepStdout: true});
	const bigEvents = Number(/^(\d+) events/m.exec(result.stdout)?.[1] ?? NaN);
	summary.big = {
		bytes: bigBytes,
		events: bigEvents,
		generateMs: round(made.wallMs),
		ms: round(result.wallMs),
		peakRssMB: round(result.rssBytes / 1024 ** 2, 1),
	};
	figure('big log', `${mb(bigBytes)}, ${bigEvents} events, generated in ${ms(made.wallMs)}`);
	figure('big log: perscope --summary', `${ms(result.wallMs)}, peak RSS ${mb(result.rssBytes)}  (target ≤ 200 MB)`);
	rmSync(big, {force: true});
}

/** Hostile shapes (issue #22): what a fleet or a hostile log can produce. Headless time and peak RSS. */
export function measureShapes({quick, seed, dir, node, cli, generator, summary, measureNode}) {
	summary.shapes = {};
	// `tools` counts tool calls (one run makes them all), the others runs. The targets are #22's.
	const shapes = quick
		? [
				['chain', 2000],
				['ring', 3],
				['wide', 20_000],
				['tools', 50_000],
			]
		: [
				['chain', 20_000],
				['ring', 3],
				['wide', 200_000, 250],
				['tools', 500_000, 200],
			];
	for (const [shape, count, targetMB] of shapes) {
		const path = join(dir, `${shape}-${count}.ndjson`);
		measureCommand(node, [generator, '--seed', seed, '--shape', shape, '--runs', String(count), '--out', path]);
		const result = measureNode(cli, ['--summary', '--json', path], {keepStdout: true});
		const jobs = JSON.parse(result.stdout).jobs;
		const runsSeen = jobs.reduce((sum, job) => sum + job.runs.length, 0);
		const activitiesSeen = jobs.reduce((sum, job) => sum + job.runs.reduce((runSum, run) => runSum + run.activities, 0), 0);
		const shown = shape === 'tools' ? `${activitiesSeen} activities shown` : `${runsSeen} runs shown`;
		summary.shapes[`${shape}-${count}`] = {
			bytes: statSync(path).size,
			runs: runsSeen,
			activities: activitiesSeen,
			ms: round(result.wallMs),
			peakRssMB: round(result.rssBytes / 1024 ** 2, 1),
		};
		const what = shape === 'tools' ? `${count} tool calls` : `${count} runs`;
		figure(
			`shape ${shape} of ${what} (${mb(statSync(path).size)}): --summary --json`,
			`${ms(result.wallMs)}, peak RSS ${mb(result.rssBytes)}, ${shown}${targetMB ? `  (#22 target: ≤ ${targetMB} MB)` : ''}`,
		);
		rmSync(path, {force: true});
	}
}

/**
 * #33's jobs: many small jobs, each a coordinator delegating to two experts over three steps, without streaming
 * deltas (`generate-log --jobs N --steps 3 --children 2 --deltas 0 --message-bytes 100`).
 */
export const manyJobsShape = ['--steps', '3', '--children', '2', '--deltas', '0', '--message-bytes', '100'];
/** #33's target for the headless peak on 20,000 of them (~1.75 GB); the viewer's is twice what headless took. */
export const manyJobsTargetMB = 250;

/**
 * Many small jobs (#33 §2): 20,000 (~1.75 GB, generated in about a minute; --quick: 200, ~17 MB), headless
 * `--summary --json` time and peak RSS. Returns the log's path, for the viewer's peak on it
 * (bench-viewer-shapes.mjs, `measureViewerPeak`); the caller removes it.
 */
export function measureManyJobs({quick, seed, dir, node, cli, generator, summary, measureNode}) {
	const jobs = quick ? 200 : 20_000;
	const path = join(dir, `jobs-${jobs}.ndjson`);
	const generatorArgs = ['--seed', seed, '--jobs', String(jobs), ...manyJobsShape];
	const made = measureCommand(node, [generator, ...generatorArgs, '--out', path]);
	const result = measureNode(cli, ['--summary', '--json', path], {keepStdout: true});
	const read = JSON.parse(result.stdout);
	const bytes = statSync(path).size;
	summary.manyJobs = {
		generator: `generate-log ${generatorArgs.join(' ')}`,
		bytes,
		events: read.events,
		jobs: read.jobs.length,
		runs: read.jobs.reduce((sum, job) => sum + job.runs.length, 0),
		generateMs: round(made.wallMs),
		ms: round(result.wallMs),
		cpuMs: round(result.cpuMs),
		peakRssMB: round(result.rssBytes / 1024 ** 2, 1),
		viewerPeakRssMB: null,
		viewerLoadMs: null,
	};
	const figures = summary.manyJobs;
	figure(`${jobs} jobs (${mb(bytes)}), generated in ${ms(made.wallMs)}`, `${figures.generator}: ${figures.events} events, ${figures.runs} runs`);
	figure(
		`${jobs} jobs: --summary --json`,
		`${ms(result.wallMs)}, CPU ${ms(result.cpuMs)}, peak RSS ${mb(result.rssBytes)}${quick ? '' : `  (#33 target: ≤ ${manyJobsTargetMB} MB)`}`,
	);
	return path;
}
