import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {cliPath, repoRoot} from '../helpers/cli-process.js';
import {describeUnsafe, unsafeForTerminal} from '../fuzz/invariants.js';
import {hostile, hostileLines, jsonFields} from './hostile-log.js';

/*
 * Event text must never reach the terminal as a control sequence, on any path: the transcript, the
 * summary table and diagnostics on stderr (the viewer's frames are checked in viewer-safety.test.tsx).
 * `--json` is the one output that keeps the strings as they were, escaped by JSON itself.
 */

const lines = hostileLines();
const dir = mkdtempSync(join(tmpdir(), 'perscope-safety-'));
// A file name is event-adjacent text too: it is printed with every diagnostic.
const logPath = join(dir, `log-\u001B]0;file-title\u0007-\u009B2J.ndjson`);
writeFileSync(logPath, lines.join('\n') + '\n');

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

function run(...args: string[]): {stdout: string; stderr: string; status: number | null} {
	const result = spawnSync(process.execPath, [cliPath, ...args, logPath], {cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']});
	return {stdout: result.stdout, stderr: result.stderr, status: result.status};
}

/** No control character but the line break, no escape, no bidi control: nothing a terminal would act on. */
function expectInert(text: string, where: string): void {
	expect(unsafeForTerminal.test(text), `${where}: ${describeUnsafe(text)}`).toBe(false);
}

describe('headless outputs of a log whose every string is an escape sequence', () => {
	it('--print writes a transcript with the escapes made visible and inert', () => {
		const {stdout, stderr, status} = run('--print');
		expect(status).toBe(0);
		expectInert(stdout, '--print stdout');
		expectInert(stderr, '--print stderr');
		// The text is still there to read, with ESC spelled as a control picture.
		expect(stdout).toContain('<command>␛[31mRED␛[0m');
		expect(stdout).toContain('\\x9b31m');
		expect(stdout).toContain('⟨U+202E⟩gnp.exe');
	});

	it('--summary writes a table with no control sequences', () => {
		const {stdout, stderr, status} = run('--summary');
		expect(status).toBe(0);
		expectInert(stdout, '--summary stdout');
		expectInert(stderr, '--summary stderr');
		expect(stdout).toContain('<expertKey>␛[31mRED');
	});

	it('diagnostics on stderr name the file and quote the line without its escapes', () => {
		const {stderr} = run('--print');
		const diagnostics = stderr.split('\n').filter(line => line.startsWith('perscope: '));
		expect(diagnostics.length).toBeGreaterThanOrEqual(3);
		expect(stderr).toContain('log-␛]0;file-title␇-\\x9b2J.ndjson:');
		expectInert(stderr, 'diagnostics');
	});

	it('--json keeps every original string, escaped by JSON so that it is valid and inert', () => {
		const {stdout, status} = run('--json');
		expect(status).toBe(0);
		expectInert(stdout, '--json stdout');
		const activities: unknown[] = stdout
			.trimEnd()
			.split('\n')
			.map(line => JSON.parse(line));
		const strings = new Set<string>();
		const collect = (value: unknown): void => {
			if (typeof value === 'string') strings.add(value);
			else if (Array.isArray(value)) value.forEach(collect);
			else if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect);
		};

		collect(activities);
		for (const field of jsonFields) {
			const original = hostile(field);
			expect(
				[...strings].some(text => text.includes(original)),
				`--json lost the original ${field}`,
			).toBe(true);
		}
	});

	it('--summary --json is valid JSON with the original expert keys, run ids and errors', () => {
		const {stdout, status} = run('--summary', '--json');
		expect(status).toBe(0);
		expectInert(stdout, '--summary --json stdout');
		const summary: {
			jobs: Array<{jobId: string; runs: Array<{runId: string; expertKey: string; error: string | null}>}>;
			unknownEvents: Record<string, number>;
		} = JSON.parse(stdout);
		const runs = summary.jobs.flatMap(job => job.runs);
		expect(summary.jobs.map(job => job.jobId)).toContain(hostile('jobId'));
		expect(runs.map(run => run.expertKey)).toContain(hostile('expertKey'));
		expect(runs.map(run => run.runId)).toContain(hostile('childRunId'));
		expect(runs.map(run => run.error)).toContain(`${hostile('errorName')}: ${hostile('errorMessage')}`);
		expect(summary.unknownEvents[hostile('unknownType')]).toBe(1);
	});
});
