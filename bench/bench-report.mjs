// The end of a benchmark run (bench/bench.mjs): whether each figure meets its target, the load average at the
// end, the temporary directory kept or removed, and one JSON line holding every figure.
import {rmSync} from 'node:fs';
import {loadavg} from 'node:os';
import {dialectRatioTarget, manyJobsTargetMB} from './bench-headless.mjs';
import {figure, round} from './bench-kit.mjs';
import {firstScreenTargetMs, keyTargetMs} from './bench-viewer-shapes.mjs';

/** Each figure against its target: null where it was not measured. */
export function targetsOf(summary) {
	return {
		ratio: summary.ratio <= 0.65,
		dialects: summary.dialects ? dialectsMet(summary) : null,
		peakRss: summary.perscope.peakRssMB <= 150,
		fasterThanLnav: summary.lnav ? summary.lnav.ratioPerscopeToLnav < 1 : null,
		tuiCpu: summary.tuiStream ? summary.tuiStream.cpuPercent <= 30 : null,
		tuiFrames: summary.tuiStream ? summary.tuiStream.framesPerSecond <= 30 : null,
		firstScreen: summary.tuiLoad?.firstScreenMs == null ? null : summary.tuiLoad.firstScreenMs <= 300,
		tuiLoad: summary.tuiLoad?.ratioToHeadless == null ? null : summary.tuiLoad.ratioToHeadless <= 1.5,
		keys: summary.keysDuringLoad?.maxMs == null ? null : summary.keysDuringLoad.maxMs <= 100,
		bigRss: summary.big ? summary.big.peakRssMB <= 200 : null,
		wideRunsRss: summary.shapes?.['wide-200000'] ? summary.shapes['wide-200000'].peakRssMB <= 250 : null,
		toolActivitiesRss: summary.shapes?.['tools-500000'] ? summary.shapes['tools-500000'].peakRssMB <= 200 : null,
		manyJobsRss: summary.manyJobs?.jobs >= 20_000 ? summary.manyJobs.peakRssMB <= manyJobsTargetMB : null,
		manyJobsViewerRss: summary.manyJobs?.viewerPeakRssMB == null ? null : summary.manyJobs.viewerPeakRssMB <= 2 * summary.manyJobs.peakRssMB,
		viewerShapesFirstScreen: summary.viewerShapes
			? Object.values(summary.viewerShapes).every(shape => shape.firstScreenMs !== null && shape.firstScreenMs <= firstScreenTargetMs)
			: null,
		soakMemory: summary.soak ? summary.soak.targets.heap : null,
		soakQuietCpu: summary.soak ? summary.soak.targets.quietCpu : null,
		soakKeys: summary.soak ? summary.soak.targets.keys : null,
		viewerShapesKeys: summary.viewerShapes
			? Object.values(summary.viewerShapes).every(
					shape => shape.unanswered.length === 0 && shape.maxKeyMs !== null && shape.maxKeyMs <= keyTargetMs && (shape.keysDuringLoadMaxMs ?? 0) <= keyTargetMs,
				)
			: null,
	};
}

/** Every agent CLI's stream read within its target, without a diagnostic. */
export function dialectsMet(summary) {
	return Object.values(summary.dialects).every(figures => figures.ratio <= dialectRatioTarget && figures.diagnostics === 0);
}

/** The run's end: `targets` is what the summary's targets are, worked out once the load average is taken. */
export function finish({quick, seed, runs, dir, keep, summary}, targets) {
	summary.machine.loadAverageAtEnd = round(loadavg()[0], 2);
	summary.targets = targets(summary);
	figure('load average (1 min) at end', String(summary.machine.loadAverageAtEnd));
	if (keep) figure('kept', dir);
	else rmSync(dir, {recursive: true, force: true});
	process.stdout.write(JSON.stringify({bench: 'perscope', quick, seed: Number(seed), runs, ...summary}) + '\n');
}
