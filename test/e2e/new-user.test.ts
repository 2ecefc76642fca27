import {execFileSync} from 'node:child_process';
import {cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {hasTmux, repoRoot, selectedLine, selectUp, sessionsKilledAfterEach, shellQuote} from './tmux.js';

/*
 * #32, what a new user tripped over, in a real terminal: with nothing to read, a headless mode says so instead of
 * printing the bundled demo, and `perscope` alone plays the demo as a live run arrives.
 */

const start = sessionsKilledAfterEach();

let directory = '';

beforeAll(() => {
	directory = mkdtempSync(join(tmpdir(), 'perscope-e2e-new-user-'));
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

describe.skipIf(!hasTmux())('a new user at a terminal', () => {
	it('a headless mode with no file and a terminal on stdin is a usage error, not the bundled demo', async () => {
		const tty = start('node dist/bin/perscope.js --summary');
		expect(await tty.exitCode()).toBe(2);
		const screen = tty.screen();
		expect(screen).toContain('perscope: no input: give a file, pipe events on stdin, or a command after -- (see perscope --help)');
		expect(screen).not.toContain('bugfix-lead');
	});

	it('--print into a pipe with a terminal on stdin is the same usage error', async () => {
		const tty = start('node dist/bin/perscope.js | cat; echo "pipe done"');
		await tty.waitFor('pipe done');
		expect(tty.screen()).toContain('perscope: no input');
	});

	it('perscope alone plays the demo live, at its recorded pace', async () => {
		const tty = start('node dist/bin/perscope.js', {width: 110, height: 30});
		// At first only part of the demo's 223 events is in, and the header says the run is live.
		const first = await tty.waitFor(/\d+ events/);
		expect(first).toMatch(/perscope · .* · demo · ▶ replay 1×/);
		expect(first).not.toContain('223 events');
		// The demo was recorded over 10.2 s: more of it comes in as it plays, at 1×.
		const count = (screen: string) => Number(/(\d+) events/.exec(screen)?.[1]);
		const later = await tty.waitFor(screen => count(screen) > count(first), 5000);
		expect(later).toMatch(/▶ replay 1×/);
		expect(later).not.toContain('223 events');
		// It plays to its end: sped up (+, four times: 2×, 5×, 10×, 20×) rather than waited for at its pace.
		tty.keys('+', '+', '+', '+');
		await tty.waitFor('▶ replay 20×');
		await tty.waitFor('223 events', 20_000);
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	}, 40_000);
});

describe.skipIf(!hasTmux())('#32 §3.5 the diagnostics overlay wraps its reasons; job-directory diagnostics name the file without :0', () => {
	it('at 80 columns a bad event file of a job directory is named whole, its reason wrapped to its end', async () => {
		// A real persisted job (CLI 0.0.54) with one event file broken.
		const job = join(directory, 'jobdir-broken');
		cpSync(join(repoRoot, 'fixtures/real/jobdir-followup'), job, {recursive: true});
		const runs = join(job, 'runs');
		const run = join(runs, readdirSync(runs)[0]!);
		const file = readdirSync(run).find(name => name.endsWith('-callTools.json'))!;
		writeFileSync(join(run, file), '{"type":"callTools", broken');
		const tty = start(`node dist/bin/perscope.js ${shellQuote(job)}`, {width: 80, height: 24});
		await tty.waitFor('1 bad line');
		tty.keys('d');
		const screen = await tty.waitFor('Diagnostics (1 bad line)');
		// A path cut at the edge goes on on the next line; a reason wraps between its words.
		expect(screen.replaceAll(/\n */g, '')).toContain(`${file}:1`);
		expect(screen.replaceAll(/\s+/g, ' ')).toContain('not JSON (Expected double-quoted property name in JSON at position 21)');
		expect(screen).not.toMatch(/\.json:0/);
	});
});

describe.skipIf(!hasTmux())('#32 §3.7 the conversation view decodes a tool result that is a JSON string into its lines', () => {
	it('a file read answered as JSON shows the file’s lines, not \\n escapes', async () => {
		// As the real runtime answers a read: {"path":"hello.txt","content":"Hello!\nBye!\n",…}.
		const tty = start('node dist/bin/perscope.js fixtures/real/followup-2-continue.ndjson', {width: 110, height: 50});
		await tty.waitFor('· ended');
		await selectUp(tty, 'read hello.txt');
		tty.keys('c');
		await tty.waitFor(/Conversation · \S+ · step/);
		// The end of the step: its tool's result.
		tty.keys('G');
		const screen = await tty.waitFor('result of readTextFile');
		expect(screen).toMatch(/"content": \|\n.* +Hello!\n.* +Bye!\n/);
		expect(screen).not.toContain('\\n');
	});
});

describe.skipIf(!hasTmux())('#32 §3.10 u: a TOTAL row, and SHARE of cost when costs are known', () => {
	it('the demo’s usage ends with its TOTAL, each expert’s share being of the cost', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/demo.ndjson', {width: 100, height: 24});
		await tty.waitFor('223 events');
		tty.keys('u');
		const screen = await tty.waitFor('Token usage per expert');
		expect(screen).toMatch(/^TOTAL +4 +43k +907 +\S+ +\S+ +\$0\.15$/m);
		expect(screen).toContain('share of the cost · esc close');
	});
});

describe.skipIf(!hasTmux())('#32 §3.12 after x, the selection is on a visible row', () => {
	it('on a 20-job log, from a job with no error, into errors only and back, the selection stays on a row shown', async () => {
		const log = join(directory, 'twenty-jobs.ndjson');
		execFileSync(
			process.execPath,
			[join(repoRoot, 'build/tools/generate-log.js'), '--seed', '11', '--jobs', '20', '--steps', '6', '--deltas', '0', '--message-bytes', '120', '--out', log],
			{stdio: 'ignore'},
		);
		const tty = start(`node dist/bin/perscope.js ${shellQuote(log)}`, {width: 100, height: 24});
		await tty.waitFor('· ended');
		// The 19th job's row, which holds no error.
		tty.keys('g');
		await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes('job 1/20') === true);
		for (let n = 0; n < 18; n++) tty.keys('j');
		await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes('job 19/20') === true);
		tty.keys('x');
		await tty.waitFor('filter: errors');
		const onError = await tty.waitFor(() => selectedLine(tty.screenWithStyles()) !== undefined);
		expect(onError).not.toContain('job 19/20');
		tty.keys('k', 'x');
		await tty.waitFor(screen => !screen.includes('filter: errors'));
		await tty.waitFor(() => selectedLine(tty.screenWithStyles()) !== undefined);
	});
});

describe.skipIf(!hasTmux())('#32 §3.6 the inspector: command and error first at 60×15, the answer before the resume on one line each, a coloured diff', () => {
	it('at 60×15 a failed command and its error are on the first screen, before ids and times', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/released/base-tools-all.ndjson', {width: 60, height: 15});
		await tty.waitFor('110 events');
		await selectUp(tty, 'exec sleep 3');
		tty.keys('Enter');
		const screen = await tty.waitFor('Inspector');
		expect(screen).toContain('sleep 3');
		expect(screen).toContain('Command timed out after 300ms.');
		expect(screen).not.toContain('previous activity:');
	});

	it('the edit’s diff is red and green', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/released/base-tools-all.ndjson', {width: 100, height: 30});
		await tty.waitFor('· ended');
		await selectUp(tty, 'edit stage/notes.txt');
		tty.keys('Enter');
		await tty.waitFor('@@ -1,1 +1,1 @@');
		const styled = tty.screenWithStyles();
		// tmux writes red as 31 and green as 32.
		expect(styled).toMatch(/\u001B\[31m-first line/);
		expect(styled).toMatch(/\u001B\[32m\+FIRST LINE/);
	});

	it('a question waiting: how to answer comes before how to resume, the answer command on one line', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/real/interactive-1.ndjson', {width: 110, height: 40});
		await tty.waitFor('· ended');
		await selectUp(tty, 'askUser');
		tty.keys('Enter');
		await tty.waitFor('Inspector');
		tty.keys('/', 'resume from', 'Enter');
		const screen = await tty.waitFor('Resume from this step');
		const lines = screen.split('\n');
		const answer = lines.findIndex(line =>
			line.startsWith("perstack run --runtime local interactive-expert '<answer>' --continue-job xlkgdwda3hj910egy4q4sxjn -i"),
		);
		expect(answer).toBeGreaterThan(-1);
		expect(answer).toBeLessThan(lines.findIndex(line => line.startsWith('Resume from this step')));
	});
});

describe.skipIf(!hasTmux())('#32 §3.8 the live text window grows into free rows', () => {
	it('a streaming answer shows as many of its latest lines as the screen leaves rows free, more than its usual 6', async () => {
		// The runtime's recording of a long answer, held while the answer streams (the pipe stays open).
		const upTo = execFileSync('grep', ['-n', '"streamRunResult"', 'fixtures/real/long-stream.ndjson'], {cwd: repoRoot, encoding: 'utf8'})
			.trim()
			.split('\n')
			.at(-1)!
			.split(':')[0];
		const tty = start(`sh -c 'head -n ${upTo} fixtures/real/long-stream.ndjson; sleep 120' | node dist/bin/perscope.js`, {width: 100, height: 40});
		const screen = await tty.waitFor(/Line 250 of the report\./);
		const answerLines = (text: string) => text.split('\n').filter(line => /Line 2\d\d|of the re|port\./.test(line)).length;
		// 40 rows: the header's three, the pane, its query and thinking, the footer: the answer takes the rest.
		expect(answerLines(screen)).toBeGreaterThan(25);
		// A shorter screen leaves fewer rows free: the window shrinks with it, past its usual 6, to its latest lines.
		tty.resize(100, 20);
		const shorter = await tty.waitFor(text => answerLines(text) < 15 && text.includes('Line 250 of the report.'));
		expect(answerLines(shorter)).toBeGreaterThan(6);
	});
});
