import {Box} from 'ink';
import {describe, expect, it} from 'vitest';
import {waitForFrame} from '../../../test/helpers/app.js';
import {modelFromFixtures, runByExpert} from '../../../test/helpers/load.js';
import {renderView} from '../../../test/helpers/views.js';
import {endInput, type Model, type Pane} from '../../model/state.js';
import type {PriceTable} from '../../query/prices.js';
import {Line} from './line.js';
import {PaneRow} from './pane-row.js';
import {displayWidth} from '../../text/width/width.js';

function paneOf(model: Model, expertKey: string): Pane {
	const pane = model.panes.get(runByExpert(model, expertKey).paneId);
	if (!pane) throw new Error(`no pane for ${expertKey}`);
	return pane;
}

async function row(
	model: Model,
	pane: Pane,
	options: {depth?: number; collapsed?: boolean; orphan?: boolean; cycle?: boolean; prices?: PriceTable; width?: number} = {},
): Promise<string> {
	const element = (
		<PaneRow
			model={model}
			pane={pane}
			depth={options.depth ?? 0}
			collapsed={options.collapsed ?? false}
			orphan={options.orphan ?? false}
			cycle={options.cycle ?? false}
			selected={false}
		/>
	);
	const view = renderView(
		options.width === undefined ? (
			element
		) : (
			<Box width={options.width}>
				<Line width={options.width}>{element}</Line>
			</Box>
		),
		{model, env: {prices: options.prices}},
	);
	const frame = await waitForFrame(view, text => text.includes('·'));
	view.unmount();
	return frame;
}

describe('a pane row', () => {
	it('shows the expert, its status, and steps, tokens and time over every run of the pane', async () => {
		const model = modelFromFixtures('demo.ndjson');
		expect(await row(model, paneOf(model, 'bugfix-lead'))).toBe('▾ bugfix-lead ✓ completed · 10 steps · 28k↑ 597↓ $0.10 · 10.2s ↻1');
	});

	it('is indented by depth, with a fold marker that says whether it is open', async () => {
		const model = modelFromFixtures('demo.ndjson');
		expect(await row(model, paneOf(model, 'test-runner'), {depth: 1, collapsed: true})).toBe('  ▸ test-runner ✓ completed · 4 steps · 8.7k↑ 196↓ $0.03 · 5.2s');
	});

	it('costs what the price table given says, and ? for a model it does not have', async () => {
		const model = modelFromFixtures('demo.ndjson');
		const prices: PriceTable = {
			source: 'test',
			date: null,
			file: null,
			models: {'claude-sonnet-4-5': {provider: 'anthropic', input: 30, cachedInput: 3, output: 150}},
		};
		expect(await row(model, paneOf(model, 'bugfix-lead'), {prices})).toMatch(/ 28k↑ 597↓ \$0\.9\d · /);
		expect(await row(model, paneOf(model, 'bugfix-lead'), {prices: {...prices, models: {}}})).toMatch(/ 28k↑ 597↓ \? · /);
	});

	it('says "step" for a single step', async () => {
		const model = modelFromFixtures('real/simple.ndjson');
		const [pane] = model.panes.values();
		expect(await row(model, pane!)).toMatch(/ · 1 step · /);
	});

	it('shows the status of the latest run of the pane', async () => {
		const model = modelFromFixtures('delegate-failure.ndjson');
		expect(await row(model, paneOf(model, 'changelog-writer'), {depth: 1})).toMatch(/^ {2}▾ changelog-writer ✗ error · 3 steps/);
		expect(await row(model, paneOf(model, 'release-coordinator'))).toMatch(/^▾ release-coordinator ⏸ waiting for delegates · /);
		endInput(model, {exitCode: 1, lastStderr: undefined});
		expect(await row(model, paneOf(model, 'release-coordinator'))).toMatch(/^▾ release-coordinator ✗ job ended while waiting · /);
	});

	it('puts the first line of the error beside the ✗ of a folded pane that failed, and only when folded', async () => {
		const model = modelFromFixtures('delegate-failure.ndjson');
		const failed = paneOf(model, 'changelog-writer');
		expect(await row(model, failed, {depth: 1, collapsed: true})).toMatch(/^ {2}▸ changelog-writer ✗ error · 3 steps · .* · AI_APICallError: Overloaded$/);
		expect(await row(model, failed, {depth: 1})).not.toContain('Overloaded');
		expect(await row(model, paneOf(model, 'docs-checker'), {depth: 1, collapsed: true})).toMatch(/^ {2}▸ docs-checker ✓ completed · \d+ steps?/);
	});

	it('regression: at 80 columns the long error of a folded pane pushed its steps, tokens, cost and time off the row; the error is cut instead', async () => {
		const model = modelFromFixtures('delegate-failure.ndjson');
		const run = runByExpert(model, 'changelog-writer');
		run.error = {name: 'AI_APICallError', message: `Overloaded: ${'the provider is busy, try again later; '.repeat(4)}`};
		const frame = await row(model, paneOf(model, 'changelog-writer'), {depth: 1, collapsed: true, width: 80});
		expect(frame).toMatch(/^ {2}▸ changelog-writer ✗ error · 3 steps · 2\.7k↑ 54↓ \$0\.0090 · 1\.3s · AI_APICallE…$/);
		expect(displayWidth(frame)).toBeLessThanOrEqual(80);
	});

	it('shows an error that tries to colour the terminal inert, on one line', async () => {
		const model = modelFromFixtures('delegate-failure.ndjson');
		const run = runByExpert(model, 'changelog-writer');
		run.error = {name: 'Boom', message: '\u001b[2J\nsecond line'};
		expect(await row(model, paneOf(model, 'changelog-writer'), {depth: 1, collapsed: true})).toMatch(/✗ error · 3 steps · .* · Boom: ␛\[2J$/);
	});

	it('says where a run branched from, and when its parent is not in the log', async () => {
		const model = modelFromFixtures('branches/1-run.ndjson', 'branches/3-resume-from.ndjson');
		const branched = [...model.panes.values()].at(-1)!;
		expect(await row(model, branched)).toMatch(/ · from run0firs step 2$/);
		expect(await row(model, branched, {orphan: true})).toMatch(/ · parent not in log$/);
	});
});
