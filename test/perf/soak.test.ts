import {execFileSync, spawn} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {hasTmux, repoRoot, sessionsKilledAfterEach, shellQuote} from '../e2e/tmux.js';

/*
 * The soak of issue #33 at a small scale (`node bench/bench-soak.mjs` is the day): the viewer in a terminal reads
 * a live stream through a pipe (bench/bench-soak-feed.mjs, ~71,000 generated events at 8,000 a second) while keys
 * are pressed, then the stream goes quiet with the input still open. What it keeps must grow only as the model
 * does (the same events reduced alone, bench/bench-soak-model.mjs), and once quiet it must run no timer: a leak or a
 * timer left running fails here rather than after a day in a tmux pane.
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-soak-'));
const start = sessionsKilledAfterEach();

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

type Memory = {rss: number; heapUsed: number; external: number};
type ModelSample = {events: number; heapUsed: number; external: number; activities: number};

function readJson<T>(path: string): T | undefined {
	try {
		return JSON.parse(readFileSync(path, 'utf8')) as T;
	} catch {
		return undefined;
	}
}

/** CPU time (all threads, ms) and voluntary context switches (all threads: how often they woke) of a process. */
function processUse(pid: number): {cpuMs: number; wakeups: number} {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	const ticks = Number(execFileSync('getconf', ['CLK_TCK'], {encoding: 'utf8'}).trim()) || 100;
	let wakeups = 0;
	for (const task of readdirSync(`/proc/${pid}/task`)) {
		const match = /^voluntary_ctxt_switches:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8'));
		wakeups += Number(match?.[1] ?? 0);
	}

	return {cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks, wakeups};
}

/** bench/bench-soak-model.mjs on `log`: the model's samples at `at` events and at the end. */
function referenceModel(log: string, at: number): Promise<{status: number | null; stdout: string; stderr: string}> {
	const child = spawn(process.execPath, ['--expose-gc', 'bench/bench-soak-model.mjs', '--dist', 'dist', '--at', String(at), log], {cwd: repoRoot});
	let stdout = '';
	let stderr = '';
	child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
	child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
	return new Promise((resolve, reject) => {
		child.on('error', reject);
		child.on('close', status => resolve({status, stdout, stderr}));
	});
}

describe.skipIf(!hasTmux() || !existsSync('/proc/self/stat'))('the viewer left open on a live stream (#33, small scale)', () => {
	it('keeps no more than the model does as events pile up, and runs nothing once the stream is quiet', async () => {
		const log = join(dir, 'soak.ndjson');
		execFileSync(
			process.execPath,
			[
				'build/tools/generate-log.js',
				'--seed',
				'3',
				'--jobs',
				'26',
				'--steps',
				'60',
				'--children',
				'2',
				'--deltas',
				'20',
				'--message-bytes',
				'120',
				'--no-histories',
				'--out',
				log,
			],
			{cwd: repoRoot, stdio: 'ignore'},
		);
		const files = {pid: join(dir, 'pid'), memory: join(dir, 'memory'), go: join(dir, 'go'), status: join(dir, 'status'), close: join(dir, 'close')};
		const feed = `${shellQuote(process.execPath)} bench/bench-soak-feed.mjs --rate 8000 --go ${shellQuote(files.go)} --status ${shellQuote(files.status)} --close ${shellQuote(files.close)} ${shellQuote(log)}`;
		const viewer = `PERSCOPE_BENCH_PIDFILE=${shellQuote(files.pid)} PERSCOPE_BENCH_MEMORY=${shellQuote(files.memory)} ${shellQuote(process.execPath)} --expose-gc --import ./bench/bench-hook.mjs dist/bin/perscope.js`;
		const tty = start(`${feed} | ${viewer}`, {width: 120, height: 30});
		try {
			await tty.waitFor('perscope', 15_000);
			for (let waited = 0; !existsSync(files.pid) && waited < 5000; waited += 50) await sleep(50);
			const pid = Number(readFileSync(files.pid, 'utf8'));
			const memory = async (): Promise<Memory> => {
				const before = existsSync(files.memory) ? readFileSync(files.memory, 'utf8').split('\n').filter(Boolean).length : 0;
				process.kill(pid, 'SIGUSR2');
				for (let waited = 0; waited < 20_000; waited += 50) {
					const lines = existsSync(files.memory) ? readFileSync(files.memory, 'utf8').split('\n').filter(Boolean) : [];
					if (lines.length > before) return JSON.parse(lines.at(-1)!) as Memory;
					await sleep(50);
				}

				throw new Error('the viewer never wrote its memory');
			};

			const keys = ['k', 'E', 'e', 'G', 'x', 'x', '/', 'v', 'Escape', 'G', '?', '?'];
			let pressed = 0;
			const events = () => readJson<{events: number; done: boolean}>(files.status) ?? {events: 0, done: false};
			tty.keys('G');
			await sleep(300);
			writeFileSync(files.go, '');
			// Warm-up: the first 15,000 events, the views' first frames, the caches filled.
			const warmAt = 15_000;
			while (events().events < warmAt) {
				tty.keys(keys[pressed++ % keys.length]!);
				await sleep(500);
			}

			const warm = {...(await memory()), events: events().events};
			while (!events().done) {
				tty.keys(keys[pressed++ % keys.length]!);
				await sleep(500);
			}

			tty.keys('Escape', 'G');
			const end = {...(await memory()), events: events().events};
			// The model alone, fed the same events: what it keeps from warm-up to the end. Worked out while the viewer
			// goes quiet: the viewer's CPU time and wake-ups below are its own, whatever else runs.
			const reference = referenceModel(log, warm.events);
			// Quiet, the input still open: the rate falls to 0 within 2 s, then the view store's tick sleeps 2 s later.
			await sleep(5000);
			const quietFrom = processUse(pid);
			await sleep(3000);
			const quietTo = processUse(pid);

			const {status, stdout, stderr} = await reference;
			expect(status, stderr).toBe(0);
			const [modelWarm, modelEnd] = (JSON.parse(stdout) as {samples: ModelSample[]}).samples;
			const kept = (sample: {heapUsed: number; external: number}) => sample.heapUsed + sample.external;
			const modelGrowth = kept(modelEnd!) - kept(modelWarm!);
			const viewerGrowth = kept(end) - kept(warm);
			const figures = {
				events: end.events,
				activities: modelEnd!.activities - modelWarm!.activities,
				modelGrowth,
				viewerGrowth,
				rssGrowth: end.rss - warm.rss,
				quietCpuMs: quietTo.cpuMs - quietFrom.cpuMs,
				quietWakeups: quietTo.wakeups - quietFrom.wakeups,
			};
			expect(end.events, JSON.stringify(figures)).toBeGreaterThan(60_000);
			// What the viewer keeps grows as the model's does (measured: 0.9 to 1.5 times): twice as much at most, and
			// 8 MB besides (its caches filling). RSS follows, with the heap's own slack.
			expect(viewerGrowth, JSON.stringify(figures)).toBeLessThan(2 * modelGrowth + 8 * 1024 * 1024);
			expect(figures.rssGrowth, JSON.stringify(figures)).toBeLessThan(3 * modelGrowth + 32 * 1024 * 1024);
			// Quiet: no timer wakes it (the view store's 100 ms tick woke it 31 times in 3 s; now 0 to 3), and ~no CPU.
			expect(figures.quietWakeups, JSON.stringify(figures)).toBeLessThan(10);
			expect(figures.quietCpuMs, JSON.stringify(figures)).toBeLessThanOrEqual(30);
		} finally {
			writeFileSync(files.close, '');
		}
	}, 120_000);
});
