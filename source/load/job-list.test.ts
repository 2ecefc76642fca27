import {appendFileSync, cpSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, utimesSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {basename, join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {JobList} from './job-list.js';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures');
const first = 'c17ceeb0-3c4e-4bb0-8e5f-2a750074d209';
const second = '0ccdcfe9-b26c-42b6-bd34-9894be0511a7';
const folders: string[] = [];

afterEach(() => {
	for (const folder of folders.splice(0)) rmSync(folder, {recursive: true, force: true});
});

function projectFolder(): string {
	const folder = mkdtempSync(join(tmpdir(), 'perscope-followed-list-'));
	folders.push(folder);
	return folder;
}

/**
 * The real session with two sub-agents (Claude Code 2.1.197) as Claude Code lays it out in a project's folder (the
 * fixtures end in .ndjson); the sub-agents' folder.
 */
function laidOutAsClaudeCodeWritesIt(folder: string): string {
	const from = join(fixtures, 'claude-code', 'session-transcript-cc2.1.197');
	cpSync(`${from}.ndjson`, join(folder, `${second}.jsonl`));
	const agents = join(folder, second, 'subagents');
	cpSync(join(from, 'subagents'), agents, {recursive: true});
	for (const name of readdirSync(agents)) if (name.endsWith('.ndjson')) renameSync(join(agents, name), join(agents, name.replace(/\.ndjson$/, '.jsonl')));
	return agents;
}

/** A real transcript's lines (Claude Code 2.1.197): a turn that reads a file and answers. */
const resumed = readFileSync(join(fixtures, 'claude-code', 'session-transcript-resumed-cc2.1.197.ndjson'), 'utf8')
	.split('\n')
	.filter(Boolean);

describe('the job list, followed', () => {
	it('shows a session started since, newest first, and a session that goes on with its new steps and status', () => {
		const folder = projectFolder();
		const session = join(folder, `${first}.jsonl`);
		writeFileSync(session, `${resumed.slice(0, 4).join('\n')}\n`);
		// A clock that stands still: every reading takes no time, so every change is read at the next look.
		const list = new JobList(folder, {follow: true, clock: () => 0});
		const listed = list.all();
		expect(listed.map(job => [job.jobId, job.status, job.steps])).toEqual([[first, 'proceeding', 0]]);
		// Nothing changed: nothing to draw again.
		expect(list.next(Number.POSITIVE_INFINITY)).toBeUndefined();

		appendFileSync(session, `${resumed.slice(4).join('\n')}\n`);
		expect(list.next(Number.POSITIVE_INFINITY)?.map(job => [job.jobId, job.status, job.steps])).toEqual([[first, 'completed', 3]]);

		// A second session, with its sub-agents' folder, started later than the first.
		laidOutAsClaudeCodeWritesIt(folder);
		const both = list.next(Number.POSITIVE_INFINITY);
		expect(both?.map(job => job.jobId)).toEqual([first, second]);
		expect(both?.find(job => job.jobId === second)?.runs).toBe(3);

		rmSync(join(folder, `${first}.jsonl`));
		expect(list.next(Number.POSITIVE_INFINITY)?.map(job => job.jobId)).toEqual([second]);
	});

	it('reads a sub-agent that writes its own file again, though the session’s file stays as it was', () => {
		const folder = projectFolder();
		const agents = laidOutAsClaudeCodeWritesIt(folder);
		// One sub-agent's file not written yet.
		const [agent] = readdirSync(agents).filter(name => name.endsWith('.jsonl'));
		const kept = readFileSync(join(agents, agent!));
		rmSync(join(agents, agent!));
		const list = new JobList(folder, {follow: true, clock: () => 0});
		const before = list.all()[0]!;
		writeFileSync(join(agents, agent!), kept);
		const after = list.next(Number.POSITIVE_INFINITY)?.[0];
		expect(after?.steps).toBeGreaterThan(before.steps);
	});

	it('lists every job at once by its name and reads them a slice at a time, the newest files first', () => {
		const folder = projectFolder();
		const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];
		for (const [index, id] of ids.entries()) {
			const path = join(folder, `${id}.jsonl`);
			writeFileSync(path, `${resumed.map(line => line.replaceAll('c17ceeb0-3c4e-4bb0-8e5f-2a750074d209', id)).join('\n')}\n`);
			// The second written last.
			utimesSync(path, 1_800_000_000 + (index === 1 ? 100 : index), 1_800_000_000 + (index === 1 ? 100 : index));
		}

		// Each look at the clock 10 ms later: one reading per slice of 10 ms.
		let now = 0;
		const list = new JobList(folder, {follow: false, clock: () => (now += 10)});
		const first = list.next(10)!;
		expect(first.filter(job => job.pending).map(job => job.jobId)).toEqual([ids[2], ids[0]]);
		expect(first.find(job => !job.pending)?.jobId).toBe(ids[1]);
		expect(list.pending).toBe(2);
		list.next(10);
		const whole = list.next(10)!;
		expect(list.pending).toBe(0);
		expect(whole.map(job => [job.status, job.pending])).toEqual([
			['completed', undefined],
			['completed', undefined],
			['completed', undefined],
		]);
		// Not followed: once read, the root is not looked at again.
		writeFileSync(join(folder, '44444444-4444-4444-8444-444444444444.jsonl'), `${resumed[2]}\n`);
		expect(list.next(10)).toBeUndefined();
	});

	it('reads a session of many megabytes over several slices, keys answered between them (it took one whole read)', () => {
		const folder = projectFolder();
		const session = join(folder, `${first}.jsonl`);
		// The turn's lines, then as many again of its first user line (~4 MB): one session, read as one.
		writeFileSync(
			session,
			`${[...resumed, ...Array.from({length: 4000}, () => resumed[2]!.replace('What does greet.txt say?', 'x'.repeat(1000)))].join('\n')}\n`,
		);
		let now = 0;
		const list = new JobList(folder, {follow: false, clock: () => (now += 10)});
		const opened = list.next(10)!;
		expect(opened.map(job => [job.jobId, job.pending])).toEqual([[first, true]]);
		let slices = 1;
		while (list.pending > 0) {
			list.next(10);
			slices++;
		}

		// 256 KB a slice: more than ten slices, each giving the keys their turn.
		expect(slices).toBeGreaterThan(10);
		expect(new JobList(folder, {follow: false}).all()).toEqual(list.all());
		// The prompts after the answer are a turn of their own, still going on.
		expect(list.all()[0]).toMatchObject({jobId: first, status: 'proceeding', steps: 3});
	});

	it('waits ten times what a job took to read before reading it again, however often it changes', () => {
		const folder = projectFolder();
		const session = join(folder, `${first}.jsonl`);
		writeFileSync(session, `${resumed.slice(0, 4).join('\n')}\n`);
		// Each look at the clock 50 ms later: a reading takes 50 ms.
		let now = 0;
		const list = new JobList(folder, {follow: true, clock: () => (now += 50)});
		list.all();
		appendFileSync(session, `${resumed.slice(4).join('\n')}\n`);
		// 50 ms after the reading ended: the change waits.
		expect(list.next(Number.POSITIVE_INFINITY)).toBeUndefined();
		now += 500;
		expect(list.next(Number.POSITIVE_INFINITY)?.[0]?.status).toBe('completed');
	});

	it('shows a Perstack job started since in a jobs root, and a job’s new event files', () => {
		const root = projectFolder();
		const jobs = join(root, 'jobs');
		const job = 'xrg3kr5eyfy4evxm775cs81p';
		const source = join(fixtures, 'jobs', 'perstack', 'jobs', job);
		cpSync(source, join(jobs, job), {recursive: true});
		// The job as it was three event files in (of all its runs').
		const events = readdirSync(join(jobs, job, 'runs'), {recursive: true, encoding: 'utf8'})
			.filter(path => path.endsWith('.json'))
			.sort((a, b) => (basename(a) < basename(b) ? -1 : 1));
		for (const path of events.slice(3)) rmSync(join(jobs, job, 'runs', path));
		const list = new JobList(root, {follow: true, clock: () => 0});
		const early = list.all();
		expect(early.map(listed => listed.jobId)).toEqual([job]);
		expect(early[0]?.status).not.toBe('completed');
		expect(list.next(Number.POSITIVE_INFINITY)).toBeUndefined();
		for (const path of events.slice(3)) cpSync(join(source, 'runs', path), join(jobs, job, 'runs', path));
		expect(list.next(Number.POSITIVE_INFINITY)?.map(listed => [listed.jobId, listed.status])).toEqual([[job, 'completed']]);

		cpSync(source, join(jobs, 'a-second-job'), {recursive: true});
		expect(list.next(Number.POSITIVE_INFINITY)?.map(listed => listed.path)).toHaveLength(2);
	});
});
