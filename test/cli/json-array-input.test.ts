import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {gzipSync} from 'node:zlib';
import {describe, expect, it} from 'vitest';
import {perscopeInProcess} from '../helpers/cli-in-process.js';
import {scratchDirectories} from '../helpers/scratch.js';
import {fixturePath} from '../helpers/load.js';

/*
 * claude-code-action keeps the messages of a run's Claude Code stream as one pretty-printed JSON array, its
 * execution file (`$RUNNER_TEMP/claude-execution-<id>/claude-execution-output.json`: JSON.stringify(messages,
 * null, 2)). fixtures/claude-code/action-execution-file.json is the recorded nested-subagents stream written so.
 * It must read as the stream reads, however it comes.
 */

const scratch = scratchDirectories('perscope-json-array-');
const stream = fixturePath('claude-code/nested-subagents.ndjson');
const array = fixturePath('claude-code/action-execution-file.json');

async function output(args: string[], stdin?: Buffer): Promise<string> {
	const result = await perscopeInProcess(args, stdin === undefined ? undefined : [stdin]);
	expect(result.code, result.stderr).toBe(0);
	expect(result.stderr).toBe('');
	return result.stdout;
}

describe('a JSON array of events (claude-code-action’s execution file)', () => {
	it('reads as the stream it was made of, in every headless mode', async () => {
		for (const mode of [['--summary', '--json'], ['--summary'], ['--print'], ['--json']]) {
			expect(await output([...mode, array]), mode.join(' ')).toBe(await output([...mode, stream]));
		}
	});

	it('reads the same from a pipe and compressed', async () => {
		const expected = await output(['--summary', '--json', stream]);
		expect(await output(['--summary', '--json'], readFileSync(array))).toBe(expected);
		const compressed = join(scratch(), 'claude-execution-output.json.gz');
		writeFileSync(compressed, gzipSync(readFileSync(array)));
		expect(await output(['--summary', '--json', compressed])).toBe(expected);
	});

	it('a stream whose first line only starts with a bracket is lines: that line is one bad line, and every event is read', async () => {
		const logged = Buffer.concat([Buffer.from('[dotenv@17.2.0] injecting env (2) from .env\n'), readFileSync(stream)]);
		const result = await perscopeInProcess(['--summary'], [logged]);
		expect(result.stdout).toContain('19 events, 1 bad line');
		expect(result.stderr).toMatch(/:1: not JSON/);
	});

	it('an array cut short keeps the events before the cut, and reports the element it cut as a bad line', async () => {
		const text = readFileSync(array, 'utf8');
		const cut = join(scratch(), 'cut.json');
		// Part way into the last element, the result.
		writeFileSync(cut, text.slice(0, text.lastIndexOf('"type": "result"') + 10));
		const result = await perscopeInProcess(['--summary', cut]);
		expect(result.stdout).toContain('18 events, 1 bad line');
		expect(result.stderr).toMatch(/cut\.json:19: not JSON/);
	});
});
