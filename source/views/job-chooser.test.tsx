import {render} from 'ink-testing-library';
import {describe, expect, it} from 'vitest';
import {keys, settle, waitForFrame} from '../../test/helpers/app.js';
import {fixturePath} from '../../test/helpers/load.js';
import {jobListing as job} from '../../test/helpers/job-listings.js';
import {listJobs, type JobListing} from '../load/job-listing.js';
import {JobChooser} from './job-chooser.js';

function choose(root: string, jobs: JobListing[], typedAhead?: {text: string}) {
	const chosen: Array<JobListing | undefined> = [];
	const view = render(<JobChooser root={root} jobs={jobs} onChoose={picked => chosen.push(picked)} typedAhead={typedAhead} />);
	const press = async (input: string) => {
		view.stdin.write(input);
		await settle();
	};

	return {view, chosen, press};
}

function selectedLine(frame: string): string | undefined {
	return frame.split('\n').find(line => line.startsWith('›'));
}

describe('the job chooser', () => {
	it('lists the saved jobs with their coordinator, status and steps, the first one selected', async () => {
		const root = fixturePath('jobs/perstack');
		const {view} = choose(root, listJobs(root));
		const frame = await waitForFrame(view, text => text.includes('newest first'));
		const lines = frame.split('\n');
		expect(lines[0]).toBe(`perscope · 1 job in ${root} · newest first`);
		// At 100 columns what a job was asked has too little room to be shown (test/e2e/claude-code.test.ts has it at 120).
		expect(lines[1]).toMatch(/^ {2}JOB +EXPERT +STATUS +STEPS +RUNS +STARTED$/);
		// The runs column, and the start in the format --print uses.
		expect(selectedLine(frame)).toMatch(/^› xrg3kr5eyfy4evxm775cs81p +coordinator +✓ completed +6 +3 +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
		expect(lines.at(-1)).toBe('↑↓ choose · enter open · / find · q quit');
		view.unmount();
	});

	it('moves with j / k and the arrows, staying within the list, and opens the selected job on enter', async () => {
		const jobs = [job('newest', {status: 'proceeding'}), job('middle', {status: 'stoppedByError'}), job('oldest')];
		const {view, chosen, press} = choose('/jobs', jobs);
		await waitForFrame(view, text => selectedLine(text)?.includes('newest') ?? false);
		await press('j');
		expect(selectedLine(view.lastFrame()!)).toMatch(/^› middle +writer +✗ error/);
		await press(keys.down);
		await press('j');
		expect(selectedLine(view.lastFrame()!)).toContain('oldest');
		await press('k');
		await press(keys.enter);
		expect(chosen).toEqual([jobs[1]]);
		view.unmount();
	});

	it('handles every key of a burst read at once (type-ahead, key repeat, ssh lag): j j enter opens the third job', async () => {
		const jobs = [job('newest'), job('middle'), job('oldest')];
		const {view, chosen, press} = choose('/jobs', jobs);
		await waitForFrame(view, text => selectedLine(text)?.includes('newest') ?? false);
		await press('jj\r');
		expect(chosen).toEqual([jobs[2]]);
		view.unmount();
	});

	it('keys typed after enter in the same read go to the job opened, not to the list (Enter e typed together lost the e)', async () => {
		const jobs = [job('newest'), job('middle'), job('oldest')];
		const typedAhead = {text: ''};
		const {view, chosen, press} = choose('/jobs', jobs, typedAhead);
		await waitForFrame(view, text => selectedLine(text)?.includes('newest') ?? false);
		await press('j\rjq');
		// The second j did not move the list, nor q quit it: both wait for the job's viewer.
		expect(chosen).toEqual([jobs[1]]);
		expect(typedAhead.text).toBe('jq');
		view.unmount();
	});

	it('/ finds jobs by what they were asked, their id or coordinator as you type; enter opens the one selected, esc shows them all', async () => {
		const jobs = [
			job('newest', {query: 'What does greet.txt say?'}),
			job('middle', {query: 'Which notes file is longest?'}),
			job('oldest', {query: 'Summarise the notes folder', coordinator: 'planner'}),
		];
		const {view, chosen, press} = choose('/jobs', jobs);
		await waitForFrame(view, text => selectedLine(text)?.includes('newest') ?? false);
		await press('/');
		await press('NOTES');
		const found = await waitForFrame(view, text => text.includes('2 of 3 jobs in /jobs'));
		expect(found).not.toMatch(/^[› ] newest /m);
		expect(selectedLine(found)).toContain('middle');
		expect(found.split('\n').at(-1)).toMatch(/^\/NOTES {3}↑↓ choose · enter open · esc every job/);
		// q is typed, not a quit; ↓ moves among what is found.
		await press('q');
		expect(await waitForFrame(view, text => text.includes('No job holds what is typed.'))).toContain('0 of 3 jobs');
		await press('\u007F');
		await press(keys.down);
		expect(selectedLine(view.lastFrame()!)).toContain('oldest');
		// Esc: every job again, the one selected still selected.
		await press('\u001B');
		const every = await waitForFrame(view, text => text.includes('3 jobs in /jobs'));
		expect(selectedLine(every)).toContain('oldest');
		expect(every.split('\n').at(-1)).toBe('↑↓ choose · enter open · / find · q quit');
		await press('/');
		await press('planner');
		await press(keys.enter);
		expect(chosen).toEqual([jobs[2]]);
		view.unmount();
	});

	it('keys typed with the enter that opens a job found with / go to the job, not to the line typed', async () => {
		const jobs = [job('newest'), job('middle', {query: 'notes'})];
		const typedAhead = {text: ''};
		const {view, chosen, press} = choose('/jobs', jobs, typedAhead);
		await waitForFrame(view, text => selectedLine(text)?.includes('newest') ?? false);
		await press('/');
		await press('notes\re?');
		expect(chosen).toEqual([jobs[1]]);
		expect(typedAhead.text).toBe('e?');
		view.unmount();
	});

	it('starts on the job it was opened from when the person comes back to the list', async () => {
		const jobs = [job('newest'), job('middle'), job('oldest')];
		const view = render(<JobChooser root="/jobs" jobs={jobs} initialJobPath="/jobs/middle" onChoose={() => undefined} />);
		expect(selectedLine(await waitForFrame(view, text => text.includes('oldest')))).toContain('middle');
		view.unmount();
	});

	it('resolves with nothing when the person quits', async () => {
		const {view, chosen, press} = choose('/jobs', [job('only')]);
		await waitForFrame(view, text => text.includes('only'));
		await press('q');
		expect(chosen).toEqual([undefined]);
		view.unmount();
	});

	it('says so when there are no jobs', async () => {
		const {view} = choose('/empty', []);
		expect(await waitForFrame(view, text => text.includes('No jobs here.'))).toContain('0 jobs in /empty');
	});

	it('dates a job the way --print does, to the second in local time', async () => {
		const startedAt = new Date(2026, 10, 21, 21, 1, 39).getTime();
		const {view} = choose('/jobs', [job('dated', {startedAt, runs: 12})]);
		const frame = await waitForFrame(view, text => text.includes('dated'));
		expect(selectedLine(frame)).toMatch(/ +3 +12 2026-11-21 21:01:39$/);
		view.unmount();
		view.unmount();
	});

	it('keeps escape sequences in job ids off the terminal', async () => {
		const {view} = choose('/jobs', [job('evil\u001B[2Jjob', {coordinator: 'bad\u009B31m'})]);
		const frame = await waitForFrame(view, text => text.includes('evil'));
		expect(frame).not.toMatch(/[\u001B\u009B]/);
		view.unmount();
	});
});
