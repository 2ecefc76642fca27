import {spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {hasTmux, shellQuote, TmuxSession} from '../e2e/tmux.js';
import {cliPath} from '../helpers/cli-process.js';
import {fixturesDir} from '../helpers/load.js';

/*
 * `o` in the inspector (write the selected event to a file in the working directory) on hostile events
 * (issue #34), in a real terminal: a line nested thousands of levels deep, and a disk that fills.
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-export-key-'));
const roomy = join(dir, 'roomy');
const full = join(dir, 'full');
mkdirSync(roomy);
mkdirSync(full);
let fullMounted = false;
let session: TmuxSession | undefined;

const toolsLog = readFileSync(join(fixturesDir, 'real', 'tools.ndjson'), 'utf8')
	.trimEnd()
	.split('\n');
const callIndex = toolsLog.findIndex(line => line.includes('"type":"callTools"'));

/** tools.ndjson with its first tool call (a `todo`, the third row of the tree) given arguments `depth` arrays deep; and that line. */
function deepLog(depth: number): {path: string; line: string} {
	const event = JSON.parse(toolsLog[callIndex]!) as {toolCalls: Array<{args: unknown}>};
	event.toolCalls[0]!.args = '@DEEP@';
	const line = JSON.stringify(event).replace('"@DEEP@"', `{"nested":${'['.repeat(depth)}${']'.repeat(depth)}}`);
	const lines = [...toolsLog];
	lines[callIndex] = line;
	const path = join(dir, `deep-${depth}.ndjson`);
	writeFileSync(path, `${lines.join('\n')}\n`);
	return {path, line};
}

beforeAll(() => {
	// A file system of 64 KiB (CI runs as root on a machine that allows it), 56 KiB of it taken: the 15 KB line
	// 7,000 levels deep does not fit in what is left.
	fullMounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', full]).status === 0;
	if (fullMounted) writeFileSync(join(full, 'filler'), Buffer.alloc(56 * 1024));
});

afterEach(() => {
	session?.kill();
	session = undefined;
});

afterAll(() => {
	// Lazily: the terminal's shell, just killed, may still have its working directory there.
	if (fullMounted) spawnSync('umount', ['-l', full]);
	rmSync(dir, {recursive: true, force: true});
});

/** Opens the viewer on `log` in `cwd`, selects the deep `todo` call, opens the inspector and presses `o`. */
async function pressExport(log: string, cwd: string): Promise<TmuxSession> {
	const opened = TmuxSession.start(`cd ${shellQuote(cwd)} && node ${shellQuote(cliPath)} ${shellQuote(log)}`, {width: 220, height: 30});
	session = opened;
	await opened.waitFor('🏁 attempt completion', 15_000);
	opened.keys('g');
	opened.keys('Down');
	opened.keys('Down');
	await opened.waitFor(/› +☑ todo/);
	opened.keys('Enter');
	await opened.waitFor('Arguments');
	opened.keys('o');
	return opened;
}

function exported(where: string): string[] {
	return readdirSync(where).filter(name => name.startsWith('perscope-'));
}

/** The one file `o` wrote, compared by size first: a diff of a 98 MB text against the line would take minutes. */
function expectWrittenAsItCame(where: string, line: string): void {
	const names = exported(where);
	expect(names).toHaveLength(1);
	const path = join(where, names[0]!);
	expect(statSync(path).size).toBe(Buffer.byteLength(line) + 1);
	expect(readFileSync(path, 'utf8') === `${line}\n`).toBe(true);
}

describe.skipIf(!hasTmux())('o on a hostile event', () => {
	it('a 7,000-level-deep line was re-indented into a 98 MB file: it is written as it came', async () => {
		const {path, line} = deepLog(7000);
		const viewer = await pressExport(path, roomy);
		await viewer.waitFor(/wrote \S+perscope-callTools-\S+\.json/, 15_000);
		expectWrittenAsItCame(roomy, line);
		viewer.keys('Escape');
		viewer.keys('q');
		expect(await viewer.exitCode()).toBe(0);
	}, 40_000);

	it('a 10,000-level-deep line became a 200 MB file, or failed with "Invalid string length": it is written as it came', async () => {
		rmSync(roomy, {recursive: true, force: true});
		mkdirSync(roomy);
		const {path, line} = deepLog(10_000);
		const viewer = await pressExport(path, roomy);
		await viewer.waitFor(/wrote \S+perscope-callTools-\S+\.json/, 15_000);
		expect(viewer.screen()).not.toContain('Invalid string length');
		expectWrittenAsItCame(roomy, line);
	}, 40_000);

	it('a disk that filled left a truncated file behind: the part written is removed, and the footer says why', async ({skip}) => {
		if (!fullMounted) skip('mounting a 64 KiB tmpfs failed (not root?): no small file system to fill');
		const {path} = deepLog(7000);
		const viewer = await pressExport(path, full);
		await viewer.waitFor('could not write the event: ENOSPC', 15_000);
		expect(viewer.screen()).toContain('the part written was removed');
		expect(exported(full)).toEqual([]);
	}, 40_000);
});
