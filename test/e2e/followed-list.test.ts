import {appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {hasTmux, repoRoot, sessionsKilledAfterEach, shellQuote} from './tmux.js';

/*
 * `perscope -f` on a folder of jobs (a Claude Code project's sessions here) in a real terminal: the list a person
 * leaves open shows each session as it starts and as it goes on, the selection staying where the person put it.
 */

const start = sessionsKilledAfterEach();
const dir = mkdtempSync(join(tmpdir(), 'perscope-followed-list-'));

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

const fixture = (name: string) => join(repoRoot, 'fixtures', 'claude-code', name);
const older = '0ccdcfe9-b26c-42b6-bd34-9894be0511a7';
const newer = 'c17ceeb0-3c4e-4bb0-8e5f-2a750074d209';

describe.skipIf(!hasTmux())('a followed list of sessions', () => {
	it('shows a session started meanwhile at the top, then its steps and end, while the selection the person moved stays on its session', async () => {
		const project = join(dir, '-home-me-app');
		mkdirSync(project);
		// The real 2.1.197 session with two sub-agents, named and laid out as Claude Code writes it.
		cpSync(fixture('session-transcript-cc2.1.197.ndjson'), join(project, `${older}.jsonl`));
		cpSync(fixture('session-transcript-cc2.1.197/subagents'), join(project, older, 'subagents'), {recursive: true});
		for (const name of readdirSync(join(project, older, 'subagents')))
			renameSync(join(project, older, 'subagents', name), join(project, older, 'subagents', name.replace(/\.ndjson$/, '.jsonl')));

		const tty = start(`node dist/bin/perscope.js -f ${shellQuote(project)}`, {width: 130, height: 20});
		const list = await tty.waitFor('newest first · following');
		expect(list).toMatch(/^› 0ccdcfe9-b26c-42b6-bd34-\s+claude\s+✓ completed\s+6\s+3 /m);
		// Until the person moves, the selection stays on the newest; once they have (j on a list of one), on their job.
		tty.keys('j');

		// A later session starts: its first lines only, as Claude Code writes them while the model answers.
		const lines = readFileSync(fixture('session-transcript-resumed-cc2.1.197.ndjson'), 'utf8').split('\n').filter(Boolean);
		const session = join(project, `${newer}.jsonl`);
		writeFileSync(session, `${lines.slice(0, 4).join('\n')}\n`);
		const started = await tty.waitFor(screen => screen.includes('2 jobs in'));
		const rows = started.split('\n').filter(line => /^[› ] [0-9a-f]{8}-/.test(line));
		expect(rows[0]).toMatch(/^ {2}c17ceeb0-3c4e-4bb0-8e5f-\s+claude\s+● running\s+0\s+1 .*What does greet\.txt say\?/);
		// The person's selection did not move with the rows.
		expect(rows[1]).toMatch(/^› 0ccdcfe9/);

		appendFileSync(session, `${lines.slice(4).join('\n')}\n`);
		const ended = await tty.waitFor(screen => /c17ceeb0-3c4e-4bb0-8e5f-\s+claude\s+✓ completed\s+3\s+2 /.test(screen));
		expect(ended).toMatch(/^› 0ccdcfe9/m);

		// It opens as any listed session does, and goes on being followed.
		tty.keys('Up', 'Enter');
		await tty.waitFor(screen => screen.includes('What does greet.txt say?') && screen.includes('● follow'));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('shows a folder of many sessions at once, reads them while keys move the selection, and ends with each read', async () => {
		const project = join(dir, '-home-me-busy');
		mkdirSync(project);
		const lines = readFileSync(fixture('session-transcript-resumed-cc2.1.197.ndjson'), 'utf8');
		const ids = Array.from({length: 500}, (_, index) => `${String(index).padStart(8, '0')}-1111-4111-8111-111111111111`);
		for (const id of ids) writeFileSync(join(project, `${id}.jsonl`), lines.replaceAll(newer, id));

		const tty = start(`node dist/bin/perscope.js ${shellQuote(project)}`, {width: 130, height: 12});
		const first = await tty.waitFor(screen => screen.includes('500 jobs in'));
		// Not all read before the first frame: the rest as the person looks.
		expect(first).toMatch(/newest first · reading… \d+ left/);
		expect(first).toMatch(/… reading/);
		tty.keys('j');
		const read = await tty.waitFor(screen => screen.includes('500 jobs in') && !screen.includes('reading'), 20_000);
		const rows = read.split('\n').filter(line => /^[› ] \d{8}-/.test(line));
		expect(rows.length).toBeGreaterThan(5);
		for (const row of rows) expect(row).toMatch(/claude +✓ completed +3 +2 .*What does greet\.txt say\?/);
		// The job j moved to is still the one selected, wherever reading put it.
		expect(read).toMatch(/^› \d{8}-/m);
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});
});
