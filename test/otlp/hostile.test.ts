import {execFileSync, spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {repoRoot} from '../helpers/cli-process.js';
import {fixturesDir} from '../helpers/load.js';
import {decodeJsonLines, startReceiver, type ReceivedSpan} from './receiver.js';
import {exportInProcess, runCli} from './run-cli.js';

/*
 * The OpenTelemetry export fed hostile logs (issue #34), through the built CLI: what a backend or a reader of
 * `--otlp-file` would get. The CLI runs in this process (run-cli.ts), but where what is tested is how long the
 * process takes to exit, or needs a module preloaded into it.
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-otlp-hostile-'));
const small = join(dir, 'small');
mkdirSync(small);
// A file system of 512 KiB (CI runs as root on a machine that allows it), for a disk that fills.
const smallMounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', small]).status === 0;
afterAll(() => {
	if (smallMounted) spawnSync('umount', ['-l', small]);
	rmSync(dir, {recursive: true, force: true});
});

const toolsLog = readFileSync(join(fixturesDir, 'real', 'tools.ndjson'), 'utf8')
	.trimEnd()
	.split('\n');

/** tools.ndjson with its first tool call's arguments nested `depth` arrays deep (JSON.parse builds that, JSON.stringify cannot write it). */
function withDeepArguments(depth: number): string {
	const index = toolsLog.findIndex(line => line.includes('"type":"callTools"'));
	const event = JSON.parse(toolsLog[index]!) as {toolCalls: Array<{args: unknown}>};
	event.toolCalls[0]!.args = '@DEEP@';
	const lines = [...toolsLog];
	lines[index] = JSON.stringify(event).replace('"@DEEP@"', `{"nested":${'['.repeat(depth)}${']'.repeat(depth)}}`);
	return `${lines.join('\n')}\n`;
}

describe('--otlp-content', () => {
	it('exported tool arguments too deep to serialise as "[object Object]", where --json writes a placeholder', async () => {
		const log = join(dir, 'deep-args.ndjson');
		writeFileSync(log, withDeepArguments(100_000));
		const file = join(dir, 'deep-args.jsonl');
		const result = await exportInProcess(['--json', '--otlp-content', '--otlp-file', file, log]);
		expect(result.code, result.stderr).toBe(0);
		const first = JSON.parse(result.stdout.split('\n')[1]!) as {type: string; args: unknown};
		expect(first).toMatchObject({type: 'todo', args: '[too deep to serialise]'});
		const todo = decodeJsonLines(readFileSync(file, 'utf8')).find(span => span.name === 'execute_tool todo');
		expect(todo?.attributes['gen_ai.tool.call.arguments']).toBe('[too deep to serialise]');
		expect(readFileSync(file, 'utf8')).not.toContain('[object Object]');
	});
});

describe('--otlp-file on a disk that fills', () => {
	it('--otlp-file /dev/full (every write fails with ENOSPC) exited 0: it exits 1 and says why', async () => {
		const result = await exportInProcess(['--summary', '--otlp-file', '/dev/full', join(fixturesDir, 'real', 'delegate.ndjson')]);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/perscope: OTLP: 0 spans written to \/dev\/full, then writing failed \(ENOSPC: no space left on device, write: /);
	});

	it('a file cut short on a full disk stayed behind with a partial last line and exit 0: it ends after its last whole line, says so, and exits 1', async ({
		skip,
	}) => {
		if (!smallMounted) skip('mounting a 512 KiB tmpfs failed (not root?): no small file system to fill');
		// 678 spans, ~630 KB of OTLP JSON: more than the file system holds. How many lines fit depends on how the
		// spans were batched (each second's, in lines of up to 512), so the count is read from the message.
		const log = join(dir, 'generated.ndjson');
		execFileSync(process.execPath, [join(repoRoot, 'build/tools/generate-log.js'), '--jobs', '6', '--deltas', '0', '--message-bytes', '50', '--out', log], {
			stdio: 'ignore',
		});
		const file = join(small, 'spans.jsonl');
		const result = await exportInProcess(['--summary', '--otlp-file', file, log]);
		expect(result.code).toBe(1);
		const said =
			/perscope: OTLP: (\d+) spans written to (\S+), then writing failed \(ENOSPC: no space left on device, write: it ends after its (\d+) whole spans\)\n/.exec(
				result.stderr,
			);
		expect(said, result.stderr).not.toBeNull();
		const [, written, path, kept] = said!;
		expect([path, kept]).toEqual([file, written]);
		expect(Number(written)).toBeLessThan(678);
		const text = readFileSync(file, 'utf8');
		if (text !== '') expect(text.endsWith('\n')).toBe(true);
		// Every line is a whole request, and they hold the spans said.
		expect(decodeJsonLines(text)).toHaveLength(Number(written));
	});
});

/*
 * Times the reader accepts (any a Date can hold) but OTLP cannot carry: its times are unsigned 64-bit
 * nanoseconds since 1970, which end on 2554-07-21 (18446744073709 ms).
 */
const outOfRange = [-1, -5000, -8.64e15, 18_446_744_073_710, 1e14, 8.64e15];
const twoTo64 = 2n ** 64n;

/** A log with every third time field (an event's timestamp, a step's startedAt or finishedAt) made one of `outOfRange`. */
function withTimesOutOfRange(text: string): string {
	let field = 0;
	let bad = 0;
	return text.replace(/"(timestamp|startedAt|finishedAt)":\d+/g, (found, name: string) =>
		field++ % 3 === 0 ? `"${name}":${outOfRange[bad++ % outOfRange.length]}` : found,
	);
}

type FileSpan = {
	spanId: string;
	parentSpanId?: string;
	name: string;
	startTimeUnixNano: string;
	endTimeUnixNano: string;
	events?: Array<{timeUnixNano: string}>;
	attributes: Array<{key: string; value: {boolValue?: boolean}}>;
};

function fileSpans(text: string): FileSpan[] {
	return text
		.split('\n')
		.filter(line => line !== '')
		.flatMap(line =>
			(JSON.parse(line) as {resourceSpans: Array<{scopeSpans: Array<{spans: FileSpan[]}>}>}).resourceSpans.flatMap(resource =>
				resource.scopeSpans.flatMap(scope => scope.spans),
			),
		);
}

/** Every child starts and ends within its parent, and nothing ends before it starts. */
function nestingProblems(spans: ReadonlyArray<{spanId: string; parentSpanId?: string | undefined; name: string; start: bigint; end: bigint}>): string[] {
	const byId = new Map(spans.map(span => [span.spanId, span]));
	const problems: string[] = [];
	for (const span of spans) {
		if (span.end < span.start) problems.push(`${span.name} ends before it starts`);
		const parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
		if (parent && (span.start < parent.start || span.end > parent.end))
			problems.push(`${span.name} sticks out of ${parent.name} by ${parent.start - span.start} / ${span.end - parent.end} ns`);
	}

	return problems;
}

function nestedFromFile(spans: FileSpan[]) {
	return spans.map(span => ({
		spanId: span.spanId,
		parentSpanId: span.parentSpanId,
		name: span.name,
		start: BigInt(span.startTimeUnixNano),
		end: BigInt(span.endTimeUnixNano),
	}));
}

function nestedFromReceiver(spans: ReceivedSpan[]) {
	return spans.map(span => ({spanId: span.spanId, parentSpanId: span.parentSpanId, name: span.name, start: BigInt(span.startMs), end: BigInt(span.endMs)}));
}

const nestingLogs = [
	'real/delegate.ndjson',
	'released/parallel-3-one-fails.ndjson',
	'released/parallel-3-one-fails-6-attempts.ndjson',
	'released/delegate-chain.ndjson',
	'released/boss-nested-parallel.ndjson',
	'released/ask-3-answer-json.ndjson',
	'real/boss-nested-parallel.ndjson',
	'real/tools.ndjson',
	'real/interactive-1.ndjson',
	'parallel-delegate.ndjson',
	'nested-delegate.ndjson',
	'mixed-step.ndjson',
	'demo.ndjson',
	'drover-subagent.ndjson',
	'daemon-strategy.ndjson',
];

describe('times OTLP cannot carry', () => {
	it('a time before 1970 or after 2554 wrapped modulo 2^64 (spans in 2189, 2211, 1970 + 18 h) and --otlp-file wrote negative or over-2^64 nanoseconds: every time is in range, the spans nest as in the clean log, and both say so', async () => {
		const clean = nestingLogs.map(name => readFileSync(join(fixturesDir, name), 'utf8'));
		const logs = clean.map((text, index) => {
			const path = join(dir, `out-of-range-${index}.ndjson`);
			writeFileSync(path, withTimesOutOfRange(text));
			return path;
		});
		// The clean logs' times: whatever stands in for a bad time comes from the log, so no span leaves their range.
		const cleanTimes = clean.flatMap(text => [...text.matchAll(/"(?:timestamp|startedAt|finishedAt)":(\d+)/g)].map(match => Number(match[1])));
		const first = BigInt(Math.min(...cleanTimes)) * 1_000_000n;
		const last = BigInt(Math.max(...cleanTimes)) * 1_000_000n;

		const receiver = await startReceiver();
		try {
			const file = join(dir, 'out-of-range.jsonl');
			const result = await exportInProcess(['--summary', '--otlp', receiver.url, '--otlp-file', file, ...logs]);
			expect(result.code, result.stderr).toBe(0);
			const spans = fileSpans(readFileSync(file, 'utf8'));
			expect(spans.length).toBeGreaterThan(100);
			const times = spans
				.flatMap(span => [span.startTimeUnixNano, span.endTimeUnixNano, ...(span.events ?? []).map(event => event.timeUnixNano)])
				.map(text => BigInt(text));
			expect(times.filter(time => time < 0n || time >= twoTo64)).toEqual([]);
			expect(times.filter(time => time < first || time > last)).toEqual([]);
			expect(nestingProblems(nestedFromFile(spans))).toEqual([]);

			// Protobuf carried the same times, not wrapped ones.
			const received = receiver.spans();
			expect(received).toHaveLength(spans.length);
			expect(received.filter(span => BigInt(span.startMs) * 1_000_000n < first || BigInt(span.endMs) * 1_000_000n > last)).toEqual([]);
			expect(nestingProblems(nestedFromReceiver(received))).toEqual([]);

			// Said on the spans it concerns, and on stderr.
			const replaced = spans.filter(span =>
				span.attributes.some(attribute => attribute.key === 'perscope.time.replaced' && attribute.value.boolValue === true),
			);
			expect(replaced.length).toBeGreaterThan(0);
			expect(result.stderr).toContain(
				`; ${replaced.length} spans had a time before 1970 or after 2554, which OTLP cannot carry: a neighbouring event's time stands in for it (perscope.time.replaced)`,
			);

			// The same spans as the clean logs give.
			const cleanFile = join(dir, 'clean.jsonl');
			expect((await exportInProcess(['--summary', '--otlp-file', cleanFile, ...nestingLogs.map(name => join(fixturesDir, name))])).code).toBe(0);
			const ids = (list: FileSpan[]) => list.map(span => span.spanId).sort();
			expect(ids(spans)).toEqual(ids(fileSpans(readFileSync(cleanFile, 'utf8'))));
		} finally {
			await receiver.close();
		}
	});

	it('a step that ended after its run, a delegate resumed after its delegation "ended", a call never answered: spans stuck out of their parents in logs with good times, and now nest', async () => {
		const file = join(dir, 'nesting.jsonl');
		const result = await exportInProcess(['--summary', '--otlp-file', file, ...nestingLogs.map(name => join(fixturesDir, name))]);
		expect(result.code, result.stderr).toBe(0);
		expect(result.stderr).not.toContain('perscope.time.replaced');
		expect(nestingProblems(nestedFromFile(fileSpans(readFileSync(file, 'utf8'))))).toEqual([]);
	});
});

describe('OTEL_* values HTTP or a timer cannot take', () => {
	const log = join(fixturesDir, 'real', 'delegate.ndjson');

	it('a CR/LF in OTEL_EXPORTER_OTLP_HEADERS was found only at send time (every span dropped, exit 0): exit 2 at start, in one line that names the header but not its value', async () => {
		const receiver = await startReceiver();
		try {
			const result = await exportInProcess(['--summary', '--otlp', receiver.url, log], {
				OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20s3cret%0D%0AX-Injected:%201',
			});
			expect(result.code).toBe(2);
			expect(result.stdout).toBe('');
			expect(result.stderr).toBe(
				'perscope: OTEL_EXPORTER_OTLP_HEADERS: the value of header authorization holds U+000D at character 14, which HTTP does not allow in a header (see perscope --help)\n',
			);
			expect(receiver.requests).toEqual([]);
		} finally {
			await receiver.close();
		}
	});

	it.each(['abc', '-1', '0', '1e12'])(
		"OTEL_EXPORTER_OTLP_TIMEOUT=%s was taken (silently, or with Node's TimeoutOverflowWarning): exit 2 at start",
		async timeout => {
			const receiver = await startReceiver();
			try {
				const result = await exportInProcess(['--summary', '--otlp', receiver.url, log], {OTEL_EXPORTER_OTLP_TIMEOUT: timeout});
				expect(result.code).toBe(2);
				expect(result.stdout).toBe('');
				expect(result.stderr).toMatch(/^perscope: OTEL_EXPORTER_OTLP_TIMEOUT=\S+ [^\n]+ \(see perscope --help\)\n$/);
				expect(receiver.requests).toEqual([]);
			} finally {
				await receiver.close();
			}
		},
	);
});

describe('a backend that cannot take the spans', () => {
	const log = join(fixturesDir, 'real', 'delegate.ndjson');

	it('a refused connection was reported as "took no more spans within 5 s" after waiting them out: it is said at once', async () => {
		// A port nothing listens on: taken from the system, then given back.
		const receiver = await startReceiver();
		const {url} = receiver;
		await receiver.close();
		const result = await runCli(['--summary', '--otlp', url, log]);
		expect(result.code).toBe(0);
		expect(result.stderr).toContain(
			`perscope: OTLP: 0 spans exported to ${url}/v1/traces, 12 dropped (connection refused by 127.0.0.1:${new URL(url).port}: nothing takes OTLP there)`,
		);
		// The summary is written, then the export flushes: that took the whole 5 s bound.
		expect(result.afterStdoutMs).toBeLessThan(2000);
	}, 20_000);

	it('a host not found was reported as "took no more spans within 5 s" after waiting them out: it is said at once', async () => {
		const result = await runCli(['--summary', '--otlp', 'http://collector.invalid:4318', log], {
			// Quoted as NODE_OPTIONS reads a word: a checkout's path may hold spaces.
			NODE_OPTIONS: `--require ${JSON.stringify(join(import.meta.dirname, 'no-such-host.cjs'))}`,
		});
		expect(result.code).toBe(0);
		expect(result.stderr).toContain(
			'perscope: OTLP: 0 spans exported to http://collector.invalid:4318/v1/traces, 12 dropped (host not found: collector.invalid)',
		);
		// The summary is written, then the export flushes: that took the whole 5 s bound.
		expect(result.afterStdoutMs).toBeLessThan(2000);
	}, 20_000);

	it('a 415 (the backend takes only OTLP JSON) said "Unsupported Media Type" alone: it says which protocol to set', async () => {
		const receiver = await startReceiver(() => ({status: 415}));
		try {
			const result = await exportInProcess(['--summary', '--otlp', receiver.url, log]);
			expect(result.code).toBe(0);
			expect(result.stderr).toContain(
				'12 dropped (the backend answered 415 Unsupported Media Type: it does not take http/protobuf; set OTEL_EXPORTER_OTLP_PROTOCOL=http/json)',
			);
		} finally {
			await receiver.close();
		}
	});
});
