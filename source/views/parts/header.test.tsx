import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {sourceState, waitForFrame} from '../../../test/helpers/app.js';
import {fixturePath, modelFromFixtures, modelFromText} from '../../../test/helpers/load.js';
import {renderView} from '../../../test/helpers/views.js';
import {createModel, endInput, type Model} from '../../model/state.js';
import {parseFilter} from '../../query/filter.js';
import {jobTotals} from '../../query/tree.js';
import {Header} from './header.js';
import {quietAfterMs} from '../../view-model/live-time.js';
import {ClockContext} from '../hooks/use-clock.js';

/** The first `count` lines of a fixture: a run as it looked while it was still going. */
function partial(fixture: string, count: number): Model {
	return modelFromText(readFileSync(fixturePath(fixture), 'utf8').split('\n').slice(0, count).join('\n'));
}

async function headerLines(model: Model, options: Parameters<typeof renderView>[1] = {}, width = 100): Promise<string[]> {
	const view = renderView(<Header width={width} />, {...options, model});
	const frame = await waitForFrame(view, text => text.includes('perscope'));
	view.unmount();
	return frame.split('\n');
}

describe('the header', () => {
	it('says where the events came from and how the job ended, then the counts', async () => {
		const [first, second] = await headerLines(modelFromFixtures('demo.ndjson'));
		expect(first).toBe('perscope · ✓ completed · job nibyyurl65b4 · 10.2s · test.ndjson · ended');
		expect(second).toBe('223 events · 14 steps · tokens 43k in / 907 out / 14k cached · $0.15');
	});

	it('shows a run still going as live and running, with the event rate', async () => {
		const [first, second] = await headerLines(partial('real/simple.ndjson', 5), {env: {sources: [sourceState({live: true})]}});
		expect(first).toMatch(/^perscope · \S running · job ivc73wpbhfw5 · \S+ · test\.ndjson · live$/);
		expect(second).toMatch(/^5 events · \d+\/s · /);
	});

	it('says how a max-steps stop can go on', async () => {
		const [first] = await headerLines(modelFromFixtures('max-steps.ndjson'));
		expect(first).toMatch(/⏹ max steps · job \w+ · \S+ · stopped at max steps: 3 of 3 · /);
	});

	it('shows a coordinator the job left waiting as ended, not as waiting', async () => {
		const model = modelFromFixtures('delegate-failure.ndjson');
		expect((await headerLines(model))[0]).toContain('⏸ waiting for delegates');
		endInput(model, {exitCode: 1, lastStderr: 'Delegation error'});
		expect((await headerLines(model))[0]).toContain('✗ job ended while waiting');
	});

	it('names a running command by its pid, and says how it exited', async () => {
		const model = modelFromFixtures('real/simple.ndjson');
		const [running] = await headerLines(model, {env: {sourceLabel: 'perstack run', sources: [sourceState({kind: 'command', live: true, pid: 4242})]}});
		expect(running).toMatch(/ · perstack run \(pid 4242\) · live$/);
		const [exited] = await headerLines(model, {env: {sourceLabel: 'perstack run', sources: [sourceState({kind: 'command', pid: 4242, exitCode: 1})]}});
		expect(exited).toMatch(/ · perstack run exited 1 · ended$/);
		const [killed] = await headerLines(model, {
			env: {sourceLabel: 'perstack run', sources: [sourceState({kind: 'command', exitCode: null, signal: 'SIGTERM'})]},
		});
		expect(killed).toContain('exited by SIGTERM');
	});

	it('counts bad lines and unknown events', async () => {
		const model = modelFromText(`${readFileSync(fixturePath('mcp-and-unknown.ndjson'), 'utf8')}not json\n`);
		const [, second] = await headerLines(model);
		expect(second).toMatch(/ · 3 steps · .* · ⚠ 1 bad line \(d\) · 3 unknown$/);
	});

	it('names the filter and how many activities it hides', async () => {
		const parsed = parseFilter('errors');
		if (!parsed.ok) throw new Error(parsed.error);
		const [, second] = await headerLines(modelFromFixtures('real/tools.ndjson'), {ui: {filter: parsed.filter}});
		expect(second).toMatch(/ · filter errors \(12 hidden\)$/);
	});

	it('before any job, says whether it is reading or waiting for events', async () => {
		expect((await headerLines(createModel(), {env: {sources: [sourceState({live: true, bytesRead: 10, bytesTotal: 100})]}}))[0]).toMatch(
			/ reading · – · test\.ndjson · loading$/,
		);
		expect((await headerLines(createModel(), {env: {sources: [sourceState({kind: 'stdin', live: true, bytesTotal: undefined})]}}))[0]).toMatch(
			/ waiting for events · – · test\.ndjson · live$/,
		);
	});

	it('keeps the status, job and time when the source is long, at 80 and 60 columns', async () => {
		const path = '/home/someone/work/projects/agents/logs/2026/11/21/a-rather-long-run-name.ndjson';
		const model = modelFromFixtures('demo.ndjson');
		const [at80] = await headerLines(model, {env: {sourceLabel: path, sources: [sourceState({label: path})]}}, 80);
		expect(at80).toMatch(/^perscope · ✓ completed · job nibyyurl65b4 · 10\.2s · a-rather-long-run-name\.nd\S*…$/);
		expect(at80).toHaveLength(80);
		const [at60] = await headerLines(model, {env: {sourceLabel: path, sources: [sourceState({label: path})]}}, 60);
		expect(at60).toMatch(/^perscope · ✓ completed · job nibyyurl65b4 · 10\.2s · a-rath.*…$/);
		const files = ['/logs/one.ndjson', '/logs/two.ndjson', '/logs/three.ndjson'];
		const [several] = await headerLines(model, {env: {sourceLabel: files.join(', '), sources: files.map(label => sourceState({label}))}}, 80);
		expect(several).toBe('perscope · ✓ completed · job nibyyurl65b4 · 10.2s · one.ndjson +2 files · ended');
		const command = ['npx', 'perstack', 'run', '--config', 'perstack.toml', 'coordinator', 'Fix the failing tests please'];
		const [child] = await headerLines(
			model,
			{env: {sourceLabel: command.join(' '), sources: [sourceState({kind: 'command', label: command.join(' '), command, live: true, pid: 7})]}},
			90,
		);
		expect(child).toMatch(/^perscope · \S completed · job nibyyurl65b4 · \S+ · npx perstack run … \(pid 7\) · live$/);
	});

	it('keeps escape sequences in the source label off the terminal', async () => {
		const [first] = await headerLines(modelFromFixtures('real/simple.ndjson'), {env: {sourceLabel: 'evil\u001B]0;title\u0007.ndjson'}});
		expect(first).not.toMatch(/[\u001B\u0007]/);
		expect(first).toContain('evil');
	});
});

describe('several jobs', () => {
	it('with several jobs, is about the job the selection is in, says which, and adds up all of them', async () => {
		const model = modelFromFixtures('real/simple.ndjson', 'demo.ndjson');
		const lines = async (selectedKey?: string) => {
			const view = renderView(<Header width={220} />, {model, ui: {selectedKey, follow: selectedKey === undefined}});
			const frame = await waitForFrame(view, text => text.includes('perscope'));
			view.unmount();
			return frame.split('\n');
		};

		// The event count is of every job, so it is in the all-jobs part, not before the selected job's figures.
		const all = ' · all 2 jobs: 18 steps · 45k in / 930 out · $0.15 · 239 events';
		// No selection: the job that saw an event last.
		const [first, second] = await lines();
		expect(first).toBe('perscope · ✓ completed · job 2/2 nibyyurl65b4 · 10.2s · test.ndjson · ended');
		expect(second).toBe(`job 2/2: 14 steps · 43k in / 907 out / 14k cached · $0.15${all}`);
		const [selectedFirst, selectedSecond] = await lines('j:ivc73wpbhfw5k0eafe5tydni');
		expect(selectedFirst).toBe('perscope · ✓ completed · job 1/2 ivc73wpbhfw5 · 308ms · test.ndjson · ended');
		expect(selectedSecond).toMatch(/^job 1\/2: 1 step · 1\.9k in \/ 23 out \/ 0 cached · \$0\.0060 · /);
		expect(selectedSecond!.endsWith(all)).toBe(true);
	});
});

describe('live time', () => {
	/** The header under a clock the test sets, ticking every few milliseconds instead of every second. */
	function withClock(model: Model, start: number, options: Parameters<typeof renderView>[1] = {}) {
		const clock = {at: start};
		const view = renderView(
			<ClockContext.Provider value={{now: () => clock.at, periodMs: 5}}>
				<Header width={140} />
			</ClockContext.Provider>,
			{...options, model},
		);
		return {view, clock};
	}

	it('while a run is live, the elapsed time keeps counting with no events coming, and the quiet is told after 5 s', async () => {
		const model = partial('real/simple.ndjson', 5);
		const [job] = model.jobs.values();
		const startedAt = jobTotals(model, job!).startedAt!;
		const {view, clock} = withClock(model, startedAt + 2000, {env: {sources: [sourceState({live: true})]}});
		const first = (await waitForFrame(view, text => text.includes('2.0s'))).split('\n')[0]!;
		expect(first).not.toContain('last event');
		clock.at = startedAt + 2000 + quietAfterMs - 1;
		await waitForFrame(view, text => text.includes('7.0s'));
		expect(view.lastFrame()).not.toContain('last event');
		clock.at = startedAt + 2000 + 12_000;
		const quiet = (await waitForFrame(view, text => text.includes('last event 12s ago'))).split('\n')[0]!;
		expect(quiet).toMatch(/^perscope · \S running · job ivc73wpbhfw5 · 14\.0s · last event 12s ago · test\.ndjson · live$/);
		view.unmount();
	});

	it('an event resets the quiet', async () => {
		const model = partial('real/simple.ndjson', 5);
		const {view, clock} = withClock(model, 1_000_000, {env: {sources: [sourceState({live: true})]}});
		clock.at += 20_000;
		await waitForFrame(view, text => text.includes('last event 20s ago'));
		model.events++;
		model.rev++;
		view.store.tick();
		await waitForFrame(view, text => !text.includes('last event'));
		view.unmount();
	});

	it('a finished log runs no clock: the time is its own, and nothing is said of the quiet', async () => {
		const model = modelFromFixtures('demo.ndjson');
		const {view, clock} = withClock(model, Date.now());
		await waitForFrame(view, text => text.includes('10.2s'));
		clock.at += 60_000;
		await new Promise(resolve => setTimeout(resolve, 50));
		expect(view.lastFrame()).toContain('10.2s');
		expect(view.lastFrame()).not.toContain('last event');
		view.unmount();
	});

	it('a run the input left running says it ended without a final event, not running', async () => {
		const model = partial('real/simple.ndjson', 5);
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		const [first] = await headerLines(model);
		expect(first).toMatch(/^perscope · ✗ ended without a final event · job ivc73wpbhfw5 · /);
	});
});
