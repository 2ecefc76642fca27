import {readFileSync} from 'node:fs';
import type {ReactElement} from 'react';
import {Text} from 'ink';
import stringWidth from 'string-width';
import {activityIcons} from '../text/describe-activity.js';
import {describe, expect, it} from 'vitest';
import {keys, sourceState, waitForFrame} from '../../test/helpers/app.js';
import {fixturePath, modelFromFixtures, modelFromText} from '../../test/helpers/load.js';
import {renderView, type ViewHarness} from '../../test/helpers/views.js';
import {createModel, type Model} from '../model/state.js';
import type {ViewEnv} from './contexts.js';
import {useUiState} from './contexts.js';
import {ConfirmQuit, DiagnosticsOverlay, HelpOverlay, StderrOverlay, UsageOverlay} from './overlays.js';
import type {Overlay} from '../view-model/ui-state.js';
import type {Command} from './keymap.js';
import {priorities, useCommands} from './keypress.js';

/** Draws the overlay while it is open, at the scroll the UI state holds, as the app does; `closed` once it closes. */
function WhileOpen({draw}: {draw: (scroll: number) => ReactElement}) {
	const {overlay} = useUiState();
	if (overlay.kind === 'none') return <Text>closed</Text>;
	return draw(overlay.kind === 'confirmQuit' ? 0 : overlay.scroll);
}

/** Stands for the tree under an overlay: records the commands that get past it. */
function Behind({reached}: {reached: Command[]}) {
	useCommands(priorities.tree, command => {
		reached.push(command);
		return true;
	});
	return null;
}

async function open(
	overlay: Overlay,
	draw: (scroll: number) => ReactElement,
	options: {model?: Model; env?: Partial<Omit<ViewEnv, 'store' | 'model'>>} = {},
): Promise<ViewHarness> {
	const view = renderView(<WhileOpen draw={draw} />, {...options, ui: {overlay}});
	await waitForFrame(view, text => text.trim() !== '');
	return view;
}

describe('the help overlay', () => {
	it('lists the keys and the icons, scrolls with j / k, and closes with esc', async () => {
		const view = await open({kind: 'help', scroll: 0}, scroll => <HelpOverlay scroll={scroll} height={8} width={90} />);
		const first = view.lastFrame()!;
		expect(first.split('\n')[0]).toBe(' Help');
		expect(first).toContain('Keys');
		expect(first).toMatch(/↑\/↓ {2}j\/k +move the selection/);
		expect(first).toMatch(/1–6 of \d+ · esc close/);
		await view.press('j');
		await waitForFrame(view, text => /2–7 of/.test(text));
		await view.press('G');
		const bottom = await waitForFrame(view, text => text.includes('● running'));
		expect(bottom).toContain('✓ completed');
		await view.press(keys.escape);
		await waitForFrame(view, text => text === 'closed');
		view.unmount();
	});

	it('keeps keys that mean nothing here from reaching the tree behind, but lets quit through', async () => {
		const reached: Command[] = [];
		const view = renderView(
			<>
				<Behind reached={reached} />
				<WhileOpen draw={scroll => <HelpOverlay scroll={scroll} height={8} width={90} />} />
			</>,
			{ui: {overlay: {kind: 'help', scroll: 0}}},
		);
		await waitForFrame(view, text => text.includes('Help'));
		await view.press('e');
		await view.press('x');
		expect(reached).toEqual([]);
		await view.press('q');
		expect(reached).toEqual(['app.quit']);
		view.unmount();
	});
});

describe('the help overlay at 60 columns', () => {
	it('wraps what does not fit rather than cutting it, and names every icon a row can show', async () => {
		const view = await open({kind: 'help', scroll: 0}, scroll => <HelpOverlay scroll={scroll} height={200} width={60} />);
		const frame = view.lastFrame()!;
		const body = frame.split('\n').slice(1, -1);
		expect(body.every(line => stringWidth(line) <= 60 && !line.endsWith('…'))).toBe(true);
		// A description too long for one line goes on under itself.
		const toggle = body.findIndex(line => line.startsWith('enter  space'));
		expect(body[toggle + 1]).toMatch(/^ {15}\S/);
		for (const icon of activityIcons()) expect(frame).toContain(icon);
		expect(frame).toContain('📁 list / mkdir');
		view.unmount();
	});
});

describe('the diagnostics overlay', () => {
	it('lists each bad line with where it was, then the unknown event types', async () => {
		const model = modelFromText(`${readFileSync(fixturePath('mcp-and-unknown.ndjson'), 'utf8')}not json\n`, {source: 'run.ndjson'});
		const view = await open({kind: 'diagnostics', scroll: 0}, scroll => <DiagnosticsOverlay scroll={scroll} height={10} width={90} />, {model});
		const frame = view.lastFrame()!;
		expect(frame.split('\n')[0]).toBe(' Diagnostics (1 bad line)');
		expect(frame).toMatch(/run\.ndjson:33 {2}\S/);
		expect(frame).toContain('unknown event type skillHealthCheck × 1');
		expect(frame).toContain('unknown event type startPlanning × 2');
		view.unmount();
	});

	it('says when there are none', async () => {
		const view = await open({kind: 'diagnostics', scroll: 0}, scroll => <DiagnosticsOverlay scroll={scroll} height={10} width={90} />, {
			model: modelFromFixtures('real/simple.ndjson'),
		});
		expect(view.lastFrame()).toContain('No bad lines.');
		view.unmount();
	});
});

describe('the usage overlay', () => {
	it('shows tokens and cost per expert with their share', async () => {
		const view = await open({kind: 'usage', scroll: 0}, scroll => <UsageOverlay scroll={scroll} height={10} width={100} />, {
			model: modelFromFixtures('demo.ndjson'),
		});
		const lines = view.lastFrame()!.split('\n');
		expect(lines[0]).toBe(' Token usage per expert');
		expect(lines[1]).toMatch(/^EXPERT +RUNS +INPUT +OUTPUT +REASON +CACHED +COST {2}SHARE$/);
		expect(lines.find(line => line.startsWith('bugfix-lead'))).toMatch(/^bugfix-lead +2 +28k +597 .* \$0\.10 /);
		expect(lines.find(line => line.startsWith('test-runner'))).toMatch(/^test-runner +1 +8\.7k +196 /);
		view.unmount();
	});

	it('keeps every column at 60 columns, numbers narrowed first', async () => {
		const view = await open({kind: 'usage', scroll: 0}, scroll => <UsageOverlay scroll={scroll} height={10} width={60} />, {
			model: modelFromFixtures('demo.ndjson'),
		});
		const lines = view.lastFrame()!.split('\n');
		expect(lines[1]).toMatch(/^EXPERT +RUNS +INPUT +OUTPUT +REASON +CACHED {2}SHARE$/);
		const lead = lines.find(line => line.startsWith('bugfix-lead'));
		expect(lead).toMatch(/^bugfix-lead +2 +28k +597 +\S+ +\S+ +\d+%$/);
		expect(lines.every(line => stringWidth(line) <= 60 && !line.endsWith('…'))).toBe(true);
		view.unmount();
	});

	it('has room for the cost at 80 columns, and leaves it out at 60 rather than the name', async () => {
		const at = async (width: number) => {
			const view = await open({kind: 'usage', scroll: 0}, scroll => <UsageOverlay scroll={scroll} height={10} width={width} />, {
				model: modelFromFixtures('demo.ndjson'),
			});
			const lines = view.lastFrame()!.split('\n');
			view.unmount();
			return lines;
		};

		const wide = await at(80);
		expect(wide[1]).toMatch(/^EXPERT +RUNS +INPUT +OUTPUT +REASON +CACHED +COST {2}SHARE$/);
		expect(wide.find(line => line.startsWith('bugfix-lead'))).toMatch(/^bugfix-lead +2 +28k +597 +\S+ +\S+ +\$0\.10 +\d+%/);
		expect(wide.every(line => stringWidth(line) <= 80)).toBe(true);
		expect((await at(60))[1]).not.toContain('COST');
	});

	it('says when no usage was reported yet', async () => {
		const view = await open({kind: 'usage', scroll: 0}, scroll => <UsageOverlay scroll={scroll} height={10} width={100} />, {model: createModel()});
		expect(view.lastFrame()).toContain('No token usage reported yet.');
		view.unmount();
	});
});

describe('the stderr overlay', () => {
	it('shows what each command wrote, and how much of it was kept', async () => {
		const sources = [sourceState({label: 'perstack run', kind: 'command', stderr: ['warn: slow', 'error: boom'], stderrCount: 120})];
		const view = await open({kind: 'stderr', scroll: 0}, scroll => <StderrOverlay scroll={scroll} height={10} width={90} />, {env: {sources}});
		expect(view.lastFrame()!.split('\n').slice(0, 4)).toEqual([' stderr', 'perstack run: 120 lines (the last 2 kept)', 'warn: slow', 'error: boom']);
		view.unmount();
	});

	it("keeps a stack trace's indentation and wraps its long lines under themselves", async () => {
		const trace = [
			'Error: boom',
			'    at Object.<anonymous> (/home/someone/projects/a-rather-long-project-name/src/index.js:10:15)',
			'\tat next (node:internal/x.js:1:1)',
		];
		const sources = [sourceState({label: 'perstack run', kind: 'command', stderr: trace, stderrCount: 3})];
		const view = await open({kind: 'stderr', scroll: 0}, scroll => <StderrOverlay scroll={scroll} height={12} width={50} />, {env: {sources}});
		const lines = view.lastFrame()!.split('\n');
		expect(lines[2]).toBe('Error: boom');
		expect(lines[3]).toMatch(/^ {4}at Object\.<anonymous>/);
		// The rest of the frame follows, indented under it, and nothing is cut.
		expect(lines[4]).toMatch(/^ {6}\S/);
		expect(lines.join('\n')).toContain('index.js:10:15)');
		expect(lines.some(line => /^ +at next \(node:internal/.test(line))).toBe(true);
		expect(lines.every(line => stringWidth(line) <= 50 && !line.endsWith('…'))).toBe(true);
		view.unmount();
	});

	it('says when nothing was written', async () => {
		const view = await open({kind: 'stderr', scroll: 0}, scroll => <StderrOverlay scroll={scroll} height={10} width={90} />);
		expect(view.lastFrame()).toContain('Nothing was written to stderr.');
		view.unmount();
	});
});

describe('the quit confirmation', () => {
	it('asks before stopping a running command; y quits', async () => {
		const view = await open({kind: 'confirmQuit'}, () => <ConfirmQuit width={80} />, {env: {childRunning: () => true}});
		expect(view.lastFrame()).toContain('The command is still running. Stop it and quit? (y / n)');
		await view.press('y');
		expect(view.quits()).toBe(1);
		view.unmount();
	});

	it('any other key is a no', async () => {
		const view = await open({kind: 'confirmQuit'}, () => <ConfirmQuit width={80} />, {env: {childRunning: () => true}});
		await view.press('n');
		await waitForFrame(view, text => text === 'closed');
		expect(view.quits()).toBe(0);
		view.unmount();
	});
});
