import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {perscopeInProcess} from '../helpers/cli-in-process.js';
import {repoRoot, startCli, waitUntil} from '../helpers/cli-process.js';
import {fixturePath, perstackLine} from '../helpers/load.js';

/*
 * The command line: every documented form, and what a mistake gets back. The runs are in this process (the CLI's
 * code from its arguments on, cli/run-cli.ts), but for those from another directory, which the built CLI makes as a
 * process (its exit code is the one run-cli returns, cli/main.ts), and -f, which is stopped by a signal.
 */

async function run(args: string[], options: {cwd?: string} = {}) {
	if (options.cwd === undefined) return perscopeInProcess(args);
	const cli = startCli(args, options);
	const exit = await cli.exit;
	return {code: exit.code, stdout: cli.stdout(), stderr: cli.stderr()};
}

const demo = fixturePath('demo.ndjson');
const dir = mkdtempSync(join(tmpdir(), 'perscope-cli-args-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));

/** A usage error is one line on stderr that says what is wrong and points to --help, exit 2, nothing on stdout. */
function expectUsageError(result: {code: number | null; stdout: string; stderr: string}, what: string | RegExp) {
	expect(result.code).toBe(2);
	expect(result.stdout).toBe('');
	expect(result.stderr.split('\n')).toEqual([expect.stringMatching(/^perscope: .* \(see perscope --help\)$/), '']);
	if (typeof what === 'string') expect(result.stderr).toContain(what);
	else expect(result.stderr).toMatch(what);
}

describe('usage errors', () => {
	it.each([
		[['--bogus', demo], 'unknown option --bogus'],
		[['--foo-bar', demo], 'unknown option --foo-bar'],
		[['-x', demo], 'unknown option -x'],
		[['--print', '--max-line-bytes', 'many', demo], '--max-line-bytes must be a positive whole number'],
		[['--print', '--max-line-bytes', '0', demo], '--max-line-bytes must be a positive whole number'],
		[['--print', '--replay=fast', demo], '--replay=SPEED needs a positive number'],
		[['--print', '--replay=2', '--', process.execPath, '-e', '0'], 'cannot be combined with a command'],
		[['--print', '--replay=2', '--replay=3', demo], '--replay can be given only once'],
		[['--print', '--prices'], '--prices needs a file, as in --prices prices.json'],
		[['--max-line-bytes', '--print', demo], '--max-line-bytes needs a number of bytes'],
		[['--print=false', demo], '--print takes no value'],
		[['--no-print', demo], 'unknown option --no-print'],
	])('%j: %s', async (args, what) => {
		expectUsageError(await run(args), what);
	});

	it('--replay 5, with no file named 5, suggests --replay=5', async () => {
		expectUsageError(await run(['--print', '--replay', '5'], {cwd: dir}), 'there is no file named 5: a replay speed goes after "=", as in --replay=5');
	});
});

describe('the documented forms', () => {
	it('--replay alone does not take the next word: a file named 5 is played at real time', async () => {
		writeFileSync(join(dir, '5'), `${perstackLine('retry', {reason: 'from the file named 5'})}\n`);
		const result = await run(['--print', '--replay', '5'], {cwd: dir});
		expect(result.code, result.stderr).toBe(0);
		// Between the marks of where its job starts and ends, and the line saying its run never ended (one event).
		const lines = result.stdout.split('\n').filter(line => !line.startsWith('── job ') && !line.includes('ended without a final event'));
		expect(lines).toEqual(['[expert] 🔁 retry from the file named 5', '']);
	});

	it('--replay=10x is a speed', async () => {
		const result = await run(['--print', '--replay=10x', fixturePath('real/simple-text.ndjson')]);
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout).toContain('✅ complete');
	});

	it('--filter takes a word that starts with -, and repeats; --filter=EXPR is the same', async () => {
		const separate = await run(['--print', '--filter', '-type:exec', '--filter', 'expert:test-runner', demo]);
		const joined = await run(['--print', '--filter=-type:exec', '--filter=expert:test-runner', demo]);
		expect(separate.code, separate.stderr).toBe(0);
		expect(separate.stdout).not.toBe('');
		expect(separate.stdout).not.toContain('⚡ exec');
		expect(
			separate.stdout
				.split('\n')
				.filter(line => line !== '' && !line.startsWith('── job '))
				.every(line => line.startsWith('  [test-runner]') || line.startsWith('[test-runner]')),
		).toBe(true);
		expect(joined).toEqual(separate);
	});

	it('everything after the first -- is the command, its own options included', async () => {
		// The command names the arguments it was given in the type of the one event it writes.
		const script = `console.log(JSON.stringify({type: process.argv.slice(1).join(' ')}))`;
		const result = await run(['--summary', '--json', '--', process.execPath, '-e', script, '--', '--print', '--bogus']);
		expect(result.code, result.stderr).toBe(0);
		expect(JSON.parse(result.stdout)).toMatchObject({events: 1, unknownEvents: {'--print --bogus': 1}});
	});

	it('-f and --follow are the same flag (regression: the test stopped the CLI before it was ready, and failed under load)', async () => {
		const short = startCli(['--print', '-f', join(dir, 'not-yet.ndjson')]);
		// Following waits for a missing file rather than failing, and says so: then its own SIGTERM handler is in
		// place. (Node catches SIGTERM from its first instant, to restore the terminal before dying of it, so
		// /proc's SigCgt told nothing about perscope's handler, and under load the signal came first.)
		await waitUntil(
			() => short.stderr().includes('not-yet.ndjson does not exist yet; waiting for it'),
			'the note that it waits',
			() => short.stderr(),
		);
		const early = await Promise.race([short.exit, new Promise(resolve => setTimeout(() => resolve('running'), 500))]);
		expect(early).toBe('running');
		short.child.kill('SIGTERM');
		expect((await short.exit).code).toBe(0);
		// Stopped while it waited: nothing appeared.
		expect(short.stderr()).toBe(`perscope: ${join(dir, 'not-yet.ndjson')} does not exist yet; waiting for it (--follow)\n`);
	});

	it('--help and --version answer on stdout with exit 0, whatever else is given', async () => {
		const help = await run(['--print', '--help', demo]);
		expect(help.code).toBe(0);
		expect(help.stdout).toContain('Usage');
		expect(help.stdout).toContain('--max-line-bytes N');
		const {version} = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {version: string};
		expect(await run(['--version'])).toEqual({code: 0, stdout: `${version}\n`, stderr: ''});
	});
});
