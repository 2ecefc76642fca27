import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import stringWidth from 'string-width';
import {afterAll, describe, expect, it} from 'vitest';
import {hasTmux, repoRoot, sessionsKilledAfterEach, shellQuote} from './tmux.js';

/*
 * Screen layout in a real terminal: whatever the text, every row fits the terminal's columns, so nothing
 * wraps and the header stays on the first line. These run `dist/bin/perscope.js`, so `npm test` builds first.
 */

const start = sessionsKilledAfterEach();

const scratch = mkdtempSync(join(tmpdir(), 'perscope-layout-'));
afterAll(() => {
	rmSync(scratch, {recursive: true, force: true});
});

const tools = readFileSync(join(repoRoot, 'fixtures/real/tools.ndjson'), 'utf8');
const japanese = 'メモファイルを作成して、その内容を確認し、結果を詳しく報告してください。さらに長い文章を続けて、端末の幅を超えるようにします。';

/** tools.ndjson with its query in Japanese, and its file written under a deep directory. */
function wideLog(): string {
	const path = join(scratch, 'japanese.ndjson');
	const text = tools
		.replaceAll('Create a notes file, check it and report back.', japanese)
		.replaceAll('"path":"notes.md"', '"path":"src/very/long/path/that/goes/on/and/on/because/it/is/notes.md"');
	writeFileSync(path, text);
	return path;
}

/** Fails unless every line of the screen fits in `columns` and the screen has at most `rows` lines. */
function expectFits(screen: string, columns: number, rows: number): void {
	const lines = screen.replace(/\n+$/, '').split('\n');
	expect(lines.length).toBeLessThanOrEqual(rows);
	for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(columns);
}

describe.skipIf(!hasTmux())('the layout in a terminal', () => {
	it('keeps a row with wide characters at the edge to the terminal width, at 80×24 and at every width down to 40', async () => {
		const log = wideLog();
		const tty = start(`node dist/bin/perscope.js ${shellQuote(log)}`, {width: 80, height: 24});
		const screen = await tty.waitFor('✅ complete');
		// The header is still the first line: no row wrapped and pushed it off.
		expect(screen.split('\n')[0]).toMatch(/^perscope · ✓ completed · job \w+ · /);
		expect(screen).toContain('💬 query メモファイル');
		expectFits(screen, 80, 24);
		for (let columns = 79; columns >= 40; columns -= 3) {
			tty.resize(columns, 24);
			const resized = await tty.waitFor(
				text =>
					text.split('\n')[0]!.startsWith('perscope') &&
					stringWidth(text.split('\n').find(line => line.includes('💬'))!) <= columns &&
					!text.split('\n').some(line => stringWidth(line) > columns),
			);
			expectFits(resized, columns, 24);
		}

		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('cuts a long path in the middle and keeps the file name', async () => {
		const tty = start(`node dist/bin/perscope.js ${shellQuote(wideLog())}`, {width: 60, height: 24});
		const screen = await tty.waitFor('✅ complete');
		expect(screen).toMatch(/✏️ write src\/…\/[\w/]*notes\.md/);
		expectFits(screen, 60, 24);
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('shows the status, job and time first in the header at 60 columns, however long the source path', async () => {
		const tty = start(`node dist/bin/perscope.js ${shellQuote(join(repoRoot, 'fixtures/real/tools.ndjson'))}`, {width: 60, height: 15});
		const screen = await tty.waitFor('✅ complete');
		expect(screen.split('\n')[0]).toMatch(/^perscope · ✓ completed · job \w+ · [\d.]+m?s · tools\.nd/);
		expectFits(screen, 60, 15);
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('at 60 columns the usage overlay keeps REASON and SHARE, and help is wrapped, not cut', async () => {
		// Tall enough for the whole help, so that its icon list is on screen without scrolling.
		const tty = start('node dist/bin/perscope.js fixtures/demo.ndjson', {width: 60, height: 60});
		await tty.waitFor('✅ complete');
		tty.keys('u');
		const usage = await tty.waitFor('Token usage per expert');
		expect(usage).toMatch(/EXPERT +RUNS +INPUT +OUTPUT +REASON +CACHED +SHARE/);
		expect(usage).toMatch(/bugfix-lead +2 +28k .* \d+%/);
		expectFits(usage, 60, 60);
		tty.keys('Escape');
		await tty.waitFor(screen => !screen.includes('Token usage'));
		tty.keys('?');
		await tty.waitFor(' Help');
		// The keys take more than a screen: the icons follow them.
		tty.keys('PageDown');
		const help = await tty.waitFor('📁 list / mkdir');
		// The panel's lines: after its title, before its hint and the footer.
		const lines = help.replace(/\n+$/, '').split('\n');
		const body = lines.slice(lines.findIndex(line => line.startsWith(' Help')) + 1, -2);
		expect(body.length).toBeGreaterThan(20);
		expect(body.filter(line => line.trimEnd().endsWith('…'))).toEqual([]);
		expect(help).toContain('📁 list / mkdir');
		expectFits(help, 60, 60);
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it("the README's sample screen is what the program draws: its footer and the shape of its rows", async () => {
		const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
		const sample = /```\n(perscope · [\s\S]*?)\n```/.exec(readme)?.[1]?.split('\n') ?? [];
		expect(sample.length).toBeGreaterThan(10);
		const tty = start('node test/e2e/fixtures/feed-slowly.mjs fixtures/demo.ndjson 20 600000 2>/dev/null | node dist/bin/perscope.js', {
			width: 104,
			height: 17,
		});
		const screen = await tty.waitFor('code-reader ✓ completed', 15_000);
		const lines = screen.replace(/\n+$/, '').split('\n');
		expect(lines.at(-1)).toBe(sample.at(-1));
		expect(sample).toHaveLength(lines.length);
		for (const row of [
			'  🤝 delegate code-reader: Read src/duration.ts and explai… ✓ formatDuration divides seconds into minu…',
			'  ▸ code-reader ✓ completed · 3 steps · 6.3k↑ 114↓ $0.02 · 4.7s',
		]) {
			expect(sample.map(line => line.slice(1))).toContain(row);
			expect(lines.map(line => line.slice(1))).toContain(row);
		}

		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('at 80 columns a failed read of a long path lost its ✗ at the edge: the path is cut and the ✗ shows', async () => {
		const log = join(scratch, 'long-failed-path.ndjson');
		writeFileSync(log, tools.replaceAll('missing-file.txt', `${'very-long-directory-name/'.repeat(5)}missing-file.txt`));
		const tty = start(`node dist/bin/perscope.js ${shellQuote(log)}`, {width: 80, height: 24});
		await tty.waitFor('tools-expert ✓ completed');
		tty.keys('e');
		const screen = await tty.waitFor('missing-file.txt ✗ File');
		expect(screen.split('\n').find(line => line.includes('📄 read') && line.includes('missing-file.txt'))).toMatch(/📄 read .*missing-file\.txt ✗ File/);
		expectFits(screen, 80, 24);
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it("the job chooser fits 80 columns with its runs column and --print's date format", async () => {
		const tty = start('cd fixtures/jobs && node ../../dist/bin/perscope.js perstack', {width: 80, height: 12});
		const list = await tty.waitFor('newest first');
		expect(list).toMatch(/JOB +EXPERT +STATUS +STEPS +RUNS +STARTED/);
		expect(list.split('\n').find(line => line.startsWith('›'))).toMatch(/^› xrg3kr5eyfy4 +coordinator +✓ completed +6 +3 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
		expectFits(list, 80, 12);
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});
});
