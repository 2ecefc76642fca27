// What every section of the benchmark (bench/bench.mjs) measures with: a figure printed, medians and units, and
// a process run and timed, with its peak RSS and CPU time from bench/bench-hook.mjs when it is a node script.
import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';

/** One figure, one line: its label, then its value. */
export function figure(label, value) {
	process.stdout.write(`${label.padEnd(46)} ${value}\n`);
}

export const median = list => {
	const sorted = [...list].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
export const round = (value, digits = 0) => Number(value.toFixed(digits));
export const ms = value => `${round(value)} ms`;
export const mb = bytes => `${round(bytes / 1024 / 1024, 1)} MB`;
export const sleep = milliseconds => new Promise(resolve => setTimeout(resolve, milliseconds));
export const quote = text => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * `measureNode(script, args, {env, keepStdout})`: runs a node script with the hook (its report written in `dir`);
 * its wall time, peak RSS and CPU time (all threads), and its output when kept.
 */
export function nodeMeasurer({node, hook, dir}) {
	let reports = 0;
	return function measureNode(script, args, {env = {}, keepStdout = false} = {}) {
		const report = join(dir, `report-${++reports}.ndjson`);
		const started = process.hrtime.bigint();
		const result = spawnSync(node, ['--import', hook, script, ...args], {
			env: {...process.env, ...env, PERSCOPE_BENCH_REPORT: report},
			stdio: ['ignore', 'pipe', 'pipe'],
			maxBuffer: 1024 * 1024 * 1024,
		});
		const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
		if (result.status !== 0)
			throw new Error(`${script} ${args.join(' ')} failed (${result.status ?? result.signal}): ${result.stderr.toString().slice(0, 2000)}`);
		const usage = JSON.parse(readFileSync(report, 'utf8').trim().split('\n').pop());
		return {wallMs, rssBytes: usage.maxRssKb * 1024, cpuMs: (usage.userUs + usage.systemUs) / 1000, stdout: keepStdout ? result.stdout.toString() : ''};
	};
}

export function measureCommand(command, args, env) {
	const started = process.hrtime.bigint();
	const result = spawnSync(command, args, {env: {...process.env, ...env}, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024});
	const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
	if (result.status !== 0) throw new Error(`${command} failed (${result.status ?? result.signal}): ${result.stderr.toString().slice(0, 2000)}`);
	return {wallMs, stdout: result.stdout.toString()};
}

export function hasCommand(command, versionArgs) {
	return spawnSync(command, versionArgs, {stdio: 'ignore'}).status === 0;
}
