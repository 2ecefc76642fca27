import type {ReactElement} from 'react';
import {describe, expect, it} from 'vitest';
import {waitForFrame} from '../../../test/helpers/app.js';
import {modelFromFixtures} from '../../../test/helpers/load.js';
import {renderView} from '../../../test/helpers/views.js';
import {isToolActivity, type Activity} from '../../model/state.js';
import {ActivityRow, Highlighted, LiveRow} from './activity-row.js';
import {Line} from './line.js';
import {displayWidth, truncateEnd} from '../../text/width/width.js';

function find(fixture: string, test: (activity: Activity) => boolean): Activity {
	const found = modelFromFixtures(fixture).activities.find(test);
	if (!found) throw new Error(`no such activity in ${fixture}`);
	return found;
}

/** The first 60 columns of a line, as the tree's 60-column row would show them. */
function truncateTo60(line: string): string {
	return truncateEnd(line, 60);
}

async function frameOf(element: ReactElement): Promise<string> {
	const view = renderView(element);
	const frame = await waitForFrame(view, text => text.trim() !== '');
	view.unmount();
	return frame;
}

describe('an activity row', () => {
	it('shows the icon, the verb and what it acted on, indented under its pane', async () => {
		const list = find('real/tools.ndjson', activity => activity.type === 'listDirectory');
		expect(await frameOf(<ActivityRow activity={list} depth={0} selected={false} />)).toBe('  📁 list .');
		expect(await frameOf(<ActivityRow activity={list} depth={2} selected={false} />)).toBe('      📁 list .');
	});

	it('adds a failed tool call’s error after a cross', async () => {
		const missing = find('real/tools.ndjson', activity => activity.type === 'readTextFile' && JSON.stringify(activity.args).includes('missing'));
		expect(await frameOf(<ActivityRow activity={missing} depth={0} selected={false} />)).toBe(
			'  📄 read missing-file.txt ✗ File missing-file.txt does not exist.',
		);
	});

	it('shows a run error once, not again after a cross', async () => {
		const error = find('real/error.ndjson', activity => activity.type === 'error');
		expect(await frameOf(<ActivityRow activity={error} depth={0} selected={false} />)).toBe(
			'  ❌ error AI_NoOutputGeneratedError: No output generated. Check the stream for errors.',
		);
	});

	it('marks a call still waiting for its result with an ellipsis', async () => {
		const ask = find('real/interactive-1.ndjson', activity => activity.type === 'interactiveTool');
		expect(await frameOf(<ActivityRow activity={ask} depth={0} selected={false} />)).toBe('  🙋 ask askUser Which colour should the report use? …');
	});

	it('adds a returned delegate’s ✓ and the first line of its answer', async () => {
		const delegate = find('real/delegate.ndjson', activity => activity.type === 'delegate');
		// The test renderer is 80 columns wide and wraps the row; the tree cuts it instead (the width test below).
		const frame = (await frameOf(<ActivityRow activity={delegate} depth={0} selected={false} />)).replaceAll(/ *\n */g, ' ');
		expect(frame).toMatch(
			/^ {2}🤝 delegate child-expert: List the workspace and summarise what is there\. ✓ The workspace contains one file: README\.txt \(one line: 'hello from the workspace'\)\.$/,
		);
	});

	it('cuts a returned delegate’s query so that its answer shows in a narrow row', async () => {
		const delegate = find('real/delegate.ndjson', activity => activity.type === 'delegate');
		const frame = await frameOf(<ActivityRow activity={delegate} depth={0} selected={false} width={60} />);
		// Half of the row's room after the verb is left for the answer: its ✓ and first words are in the first 60 columns.
		const [first] = frame.split('\n');
		expect(truncateTo60(first!)).toMatch(/^ {2}🤝 delegate child-expert: List the\S*… ✓ The workspace/);
	});

	it('adds nothing to a delegate whose child is still running', async () => {
		const delegate = find('delegate-failure.ndjson', activity => activity.type === 'delegate');
		const frame = await frameOf(<ActivityRow activity={delegate} depth={0} selected={false} />);
		expect(frame).not.toMatch(/[✓✗]/);
	});

	it('adds a failed delegate’s ✗ and the first line of its error, sanitised, once', async () => {
		const delegate = find('real/delegate.ndjson', activity => activity.type === 'delegate');
		if (delegate.type !== 'delegate' || !delegate.result) throw new Error('no delegate result');
		const failed: Activity = {...delegate, result: {...delegate.result, error: '\n\u001b]0;owned\u0007Overloaded\nretry later'}};
		const frame = await frameOf(<ActivityRow activity={failed} depth={0} selected={false} />);
		expect(frame).toMatch(/ ✗ ␛]0;owned␇Overloaded$/);
		expect(frame.split('✗')).toHaveLength(2);
	});

	it('keeps a delegate row with its answer within the width it is cut to', async () => {
		const delegate = find('real/delegate.ndjson', activity => activity.type === 'delegate');
		const frame = await frameOf(
			<Line width={30}>
				<ActivityRow activity={delegate} depth={0} selected={false} width={30} />
			</Line>,
		);
		expect(displayWidth(frame)).toBeLessThanOrEqual(30);
	});

	it('cuts a path too long for its columns in the middle, keeping the file name', async () => {
		const write = find('real/tools.ndjson', activity => activity.type === 'writeTextFile');
		if (!isToolActivity(write)) throw new Error('not a tool call');
		const deep: Activity = {...write, args: {path: 'src/very/long/path/that/goes/on/because/it/is.ts'}};
		// 40 columns: 2 of indent, `✏️ write ` and 28 left for the path.
		const row = await frameOf(<ActivityRow activity={deep} depth={0} selected={false} width={40} />);
		expect(row).toBe('  ✏️ write src/…/on/because/it/is.ts');
		expect(await frameOf(<ActivityRow activity={deep} depth={0} selected={false} width={100} />)).toBe(
			'  ✏️ write src/very/long/path/that/goes/on/because/it/is.ts',
		);
	});

	it('a failed call on a long path lost its ✗ at 80 columns (the row was cut at the edge): the path is cut, the mark stays', async () => {
		const missing = find('real/tools.ndjson', activity => activity.type === 'readTextFile' && JSON.stringify(activity.args).includes('missing'));
		if (!isToolActivity(missing)) throw new Error('not a tool call');
		const long: Activity = {...missing, args: {path: `${'very-long-directory-name/'.repeat(5)}missing-file.txt`}};
		const frame = await frameOf(
			<Line width={80}>
				<ActivityRow activity={long} depth={1} selected={false} width={80} />
			</Line>,
		);
		expect(displayWidth(frame)).toBeLessThanOrEqual(80);
		expect(frame).toMatch(/^ {4}📄 read .*missing-file\.txt ✗ File/);
	});

	it('a failed command too long for its row keeps its ✗ and the start of the error', async () => {
		const failed = find('demo.ndjson', activity => activity.type === 'exec' && activity.result?.error !== undefined);
		if (!isToolActivity(failed)) throw new Error('not a tool call');
		const long: Activity = {...failed, args: {command: 'npm', args: ['test', '--', ...Array.from({length: 20}, (_, index) => `--flag-${index}`)]}};
		const frame = await frameOf(
			<Line width={60}>
				<ActivityRow activity={long} depth={0} selected={false} width={60} />
			</Line>,
		);
		expect(displayWidth(frame)).toBeLessThanOrEqual(60);
		expect(frame).toMatch(/^ {2}⚡ exec npm test -- --flag-0 .*… ✗ \S/);
	});

	it('marks search matches without changing the text', async () => {
		const exec = find('real/tools.ndjson', activity => activity.type === 'exec');
		expect(await frameOf(<ActivityRow activity={exec} depth={0} selected={false} highlight="NOTES" />)).toBe('  ⚡ exec wc -l notes.md');
		expect(await frameOf(<Highlighted text="notes.md and notes.txt" query="notes" />)).toBe('notes.md and notes.txt');
	});
});

describe('a live row', () => {
	it('shows streamed reasoning and the result being written with their own gutters', async () => {
		expect(await frameOf(<LiveRow text="Thinking about the hours branch" depth={1} channel="reasoning" />)).toBe('    ┆ Thinking about the hours branch');
		expect(await frameOf(<LiveRow text="Fixed. formatDuration" depth={0} channel="result" />)).toBe('  │ Fixed. formatDuration');
	});
});
