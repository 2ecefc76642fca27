// Preloaded (`node --import`) into each process the benchmark measures; it changes nothing in the program.
// PERSCOPE_BENCH_REPORT: at exit, append the process's peak RSS and CPU time (all threads) to that file.
// PERSCOPE_BENCH_PIDFILE: write the process id there at start, so the benchmark can read /proc/<pid>/stat.
import {appendFileSync, writeFileSync} from 'node:fs';
import {isMainThread} from 'node:worker_threads';

if (isMainThread) {
	const pidFile = process.env['PERSCOPE_BENCH_PIDFILE'];
	const report = process.env['PERSCOPE_BENCH_REPORT'];
	// Children of the measured process (none today) must not report as if they were it.
	delete process.env['PERSCOPE_BENCH_PIDFILE'];
	delete process.env['PERSCOPE_BENCH_REPORT'];
	if (pidFile) writeFileSync(pidFile, String(process.pid));
	if (report) {
		process.on('exit', () => {
			const usage = process.resourceUsage();
			appendFileSync(report, JSON.stringify({maxRssKb: usage.maxRSS, userUs: usage.userCPUTime, systemUs: usage.systemCPUTime}) + '\n');
		});
	}
}
