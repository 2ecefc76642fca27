// Preloaded (`node --import`) into each process the benchmark measures; it changes nothing in the program.
// PERSCOPE_BENCH_REPORT: at exit, append the process's peak RSS and CPU time (all threads) to that file.
// PERSCOPE_BENCH_PIDFILE: write the process id there at start, so the benchmark can read /proc/<pid>/stat.
// PERSCOPE_BENCH_MEMORY: on SIGUSR2, collect garbage (when node runs with --expose-gc) and append the process's
// memory (RSS, the main thread's heap) and CPU time to that file: what the program keeps, not what it let go.
// PERSCOPE_BENCH_HEAPSNAPSHOT (with PERSCOPE_BENCH_MEMORY): on SIGUSR2, also write a heap snapshot of the main
// thread to that path, numbered (to see what a soak's heap is made of).
import {appendFileSync, writeFileSync} from 'node:fs';
import {writeHeapSnapshot} from 'node:v8';
import {isMainThread} from 'node:worker_threads';

if (isMainThread) {
	const pidFile = process.env['PERSCOPE_BENCH_PIDFILE'];
	const report = process.env['PERSCOPE_BENCH_REPORT'];
	const memory = process.env['PERSCOPE_BENCH_MEMORY'];
	const snapshot = process.env['PERSCOPE_BENCH_HEAPSNAPSHOT'];
	let snapshots = 0;
	// Children of the measured process (none today) must not report as if they were it.
	delete process.env['PERSCOPE_BENCH_PIDFILE'];
	delete process.env['PERSCOPE_BENCH_REPORT'];
	delete process.env['PERSCOPE_BENCH_MEMORY'];
	delete process.env['PERSCOPE_BENCH_HEAPSNAPSHOT'];
	if (pidFile) writeFileSync(pidFile, String(process.pid));
	if (memory) {
		process.on('SIGUSR2', () => {
			const started = performance.now();
			globalThis.gc?.();
			const gcMs = performance.now() - started;
			const {rss, heapUsed, heapTotal, external, arrayBuffers} = process.memoryUsage();
			const usage = process.resourceUsage();
			appendFileSync(
				memory,
				JSON.stringify({rss, heapUsed, heapTotal, external, arrayBuffers, gcMs, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000}) + '\n',
			);
			if (snapshot) writeHeapSnapshot(`${snapshot}.${++snapshots}.heapsnapshot`);
		});
	}

	if (report) {
		process.on('exit', () => {
			const usage = process.resourceUsage();
			appendFileSync(report, JSON.stringify({maxRssKb: usage.maxRSS, userUs: usage.userCPUTime, systemUs: usage.systemCPUTime}) + '\n');
		});
	}
}
