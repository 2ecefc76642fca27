import {spawn, spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import type {Summary} from '../../source/output/summary.js';
import {perscopeInProcess} from '../helpers/cli-in-process.js';
import {cliPath, repoRoot} from '../helpers/cli-process.js';
import {fixturePath} from '../helpers/load.js';

/*
 * `--prices FILE` fed what a price file should never be: a device that never ends, a table too big to be one,
 * prices that overflow, names that are escape sequences or `__proto__`. Every input is made here. What is about
 * the process (its memory and time on a device or a huge file, a FIFO that blocks its read) goes through the real,
 * built CLI; what is about the answer runs the CLI's code in this process (`here`), sparing a Node start each.
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-prices-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));

const demo = fixturePath('demo.ndjson');
type Result = {status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; ms: number};

function perscope(args: string[], timeoutMs = 20_000): Result {
	const started = Date.now();
	const result = spawnSync(process.execPath, [cliPath, ...args], {
		cwd: repoRoot,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		timeout: timeoutMs,
		killSignal: 'SIGKILL',
		maxBuffer: 64 * 1024 * 1024,
	});
	return {status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr, ms: Date.now() - started};
}

/** The CLI's code from its arguments on (cli/run-cli.ts), in this process. */
async function here(args: string[]): Promise<{status: number | null; stdout: string; stderr: string}> {
	const {code, stdout, stderr} = await perscopeInProcess(args);
	return {status: code, stdout, stderr};
}

function priceFile(name: string, content: string | Buffer): string {
	const path = join(dir, name);
	writeFileSync(path, content);
	return path;
}

const sonnet = {provider: 'anthropic', input: 3, cachedInput: 0.3, output: 15};
const table = (models: Record<string, unknown>, extra: Record<string, unknown> = {}) => JSON.stringify({...extra, models});

async function costOf(args: string[]): Promise<number | null> {
	const result = await here(['--summary', '--json', ...args]);
	expect(result.status, result.stderr).toBe(0);
	const summary: Summary = JSON.parse(result.stdout);
	return summary.costUsd;
}

describe('regressions: --prices', () => {
	it.each(['/dev/zero', '/dev/urandom'])('--prices %s read without limit (16 GB, then std::bad_alloc): now 16 MiB at most, one line, exit 2', device => {
		const result = perscope(['--summary', '--prices', device, demo]);
		expect(result.signal).toBeNull();
		expect(result.status).toBe(2);
		expect(result.stdout).toBe('');
		expect(result.stderr).toBe(`perscope: --prices ${device}: more than 16 MiB, too big for a price table (read no further) (see perscope --help)\n`);
		expect(result.ms).toBeLessThan(15_000);
	});

	it('a 150 MB price table was parsed whole (7 s, 1 GB of memory): a file over 16 MiB is refused before parsing', () => {
		const huge = priceFile('huge.json', table({m: sonnet}).replace('{"models"', `{"source":"${'x'.repeat(20 * 1024 * 1024)}","models"`));
		const result = perscope(['--summary', '--prices', huge, demo]);
		expect(result.status).toBe(2);
		expect(result.stderr).toMatch(/: more than 16 MiB, too big for a price table/);
	});

	it('a price file in a FIFO is read too, with the same bound', async () => {
		const fifo = join(dir, 'prices.fifo');
		expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
		const writer = spawn('/bin/sh', ['-c', 'printf %s "$1" > "$2"', 'sh', table({'claude-sonnet-4-5': sonnet}), fifo], {stdio: 'ignore'});
		const written = new Promise(resolve => writer.once('close', resolve));
		const result = perscope(['--summary', '--json', '--prices', fifo, demo]);
		expect(result.status, result.stderr).toBe(0);
		expect((JSON.parse(result.stdout) as Summary).costUsd).toBeGreaterThan(0);
		await written;
	});

	it('a price of 1e308 showed $Infinity and null: a price over $10,000 per million tokens is refused, naming it', async () => {
		const path = priceFile('overflow.json', table({'claude-sonnet-4-5': {...sonnet, output: 1e308}}));
		const result = await here(['--summary', '--prices', path, demo]);
		expect(result.status).toBe(2);
		expect(result.stdout).toBe('');
		expect(result.stderr).toBe(
			`perscope: --prices ${path}: models.claude-sonnet-4-5.output: a price is US dollars per million tokens, at most 10000 (see perscope --help)\n`,
		);
		// At the bound, the costs stay finite.
		const bound = priceFile('bound.json', table({'claude-sonnet-4-5': {provider: 'anthropic', input: 10_000, cachedInput: 10_000, output: 10_000}}));
		expect(Number.isFinite(await costOf(['--prices', bound, demo]))).toBe(true);
	});

	it('a byte order mark before the JSON was refused, quoting a raw U+FEFF: it is skipped', async () => {
		const plain = priceFile('plain.json', table({'claude-sonnet-4-5': sonnet}));
		const marked = priceFile('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(plain)]));
		const expected = await costOf(['--prices', plain, demo]);
		expect(expected).toBeGreaterThan(0);
		expect(await costOf(['--prices', marked, demo])).toBe(expected);
	});

	it('the date 9999-99-99 was accepted: a date must be a day of the calendar', async () => {
		for (const date of ['9999-99-99', '2026-02-29', '2026-04-31', '2026-00-10']) {
			const result = await here(['--summary', '--prices', priceFile('date.json', table({}, {date})), demo]);
			expect(result.status, date).toBe(2);
			expect(result.stderr).toMatch(/: date: a date is written YYYY-MM-DD, and must be a day of the calendar \(see perscope --help\)\n$/);
		}

		const leapDay = await here(['--summary', '--json', '--prices', priceFile('leap.json', table({}, {date: '2028-02-29'})), demo]);
		expect(leapDay.status, leapDay.stderr).toBe(0);
		expect((JSON.parse(leapDay.stdout) as Summary).prices.date).toBe('2028-02-29');
	});

	it('a key path with ESC, OSC, BEL and U+202E reached the terminal raw in the error message: it is shown inert', async () => {
		const hostile = '\u001b]0;owned\u0007\u001b[2J\u202Egnp.exe';
		const path = priceFile('hostile.json', table({[hostile]: {...sonnet, provider: 'acme'}}));
		const result = await here(['--summary', '--prices', path, demo]);
		expect(result.status).toBe(2);
		expect(result.stderr).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/);
		expect(result.stderr).toContain('models.␛]0;owned␇␛[2J⟨U+202E⟩gnp.exe.provider: ');
		// JSON.parse's own message quotes the text too.
		const broken = await here(['--summary', '--prices', priceFile('broken.json', `${hostile} not json`), demo]);
		expect(broken.status).toBe(2);
		expect(broken.stderr).toMatch(/^perscope: --prices .*: not JSON: /);
		expect(broken.stderr).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E]/);
	});

	it('a model named __proto__ in a price file was silently dropped: it is priced like any other name', async () => {
		const log = priceFile('proto.ndjson', readFileSync(demo, 'utf8').replaceAll('"model":"claude-sonnet-4-5"', '"model":"__proto__"'));
		const expected = await costOf(['--prices', priceFile('sonnet.json', table({'claude-sonnet-4-5': sonnet})), demo]);
		expect(expected).toBeGreaterThan(0);
		const proto = priceFile('proto.json', `{"models":{"__proto__":${JSON.stringify(sonnet)}}}`);
		expect(await costOf(['--prices', proto, log])).toBe(expected);
		// And a name the table does not have is no price, whatever Object.prototype holds.
		const constructorLog = priceFile('constructor.ndjson', readFileSync(demo, 'utf8').replaceAll('"model":"claude-sonnet-4-5"', '"model":"constructor"'));
		expect(await costOf(['--prices', proto, constructorLog])).toBeNull();
	});
});
