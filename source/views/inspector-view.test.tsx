import {Text} from 'ink';
import {describe, expect, it} from 'vitest';
import {keys, waitForFrame} from '../../test/helpers/app.js';
import {modelFromFixtures} from '../../test/helpers/load.js';
import {renderView, type ViewHarness} from '../../test/helpers/views.js';
import {createModel, isToolActivity, type Activity, type Model, type ToolActivity} from '../model/state.js';
import type {ViewEnv} from './contexts.js';
import {useUiState} from './contexts.js';
import {Inspector} from './inspector-view.js';
import type {Command} from './keymap.js';
import {priorities, useCommands} from './keypress.js';

/** Draws the inspector while it is open, at the scroll the UI state holds, as the app does; `closed` once it closes. */
function WhileOpen({activityId, height, width}: {activityId: string; height: number; width: number}) {
	const {overlay} = useUiState();
	if (overlay.kind !== 'inspector') return <Text>closed</Text>;
	return <Inspector activityId={activityId} scroll={overlay.scroll} height={height} width={width} />;
}

/** Stands for the tree under the inspector: records the commands that get past it. */
function Behind({reached}: {reached: Command[]}) {
	useCommands(priorities.tree, command => {
		reached.push(command);
		return true;
	});
	return null;
}

async function open(
	model: Model,
	activityId: string,
	options: {height?: number; width?: number; env?: Partial<Omit<ViewEnv, 'store' | 'model'>>; reached?: Command[]} = {},
): Promise<ViewHarness> {
	const view = renderView(
		<>
			{options.reached ? <Behind reached={options.reached} /> : null}
			<WhileOpen activityId={activityId} height={options.height ?? 20} width={options.width ?? 90} />
		</>,
		{model, env: options.env, ui: {overlay: {kind: 'inspector', activityId, scroll: 0}}},
	);
	await waitForFrame(view, text => text.includes('Inspector'));
	return view;
}

function activityOf(model: Model, test: (activity: Activity) => boolean): Activity {
	const found = model.activities.find(test);
	if (!found) throw new Error('no such activity');
	return found;
}

/** The real exec of tools.ndjson, given an output of `count` numbered lines (`line 1` …). */
function longExec(count: number): {model: Model; exec: ToolActivity} {
	const model = modelFromFixtures('real/tools.ndjson');
	const found = activityOf(model, activity => activity.type === 'exec');
	if (!isToolActivity(found) || !found.result) throw new Error('no exec with a result');
	const output = Array.from({length: count}, (_, index) => `line ${index + 1}`).join('\n');
	const exec: ToolActivity = {...found, result: {...found.result, text: JSON.stringify({output})}};
	model.activities[model.activityIndexById.get(found.id)!] = exec;
	return {model, exec};
}

const body = (frame: string) =>
	frame
		.split('\n')
		.slice(1, -1)
		.map(line => line.trimEnd());
const bottom = (frame: string) => frame.split('\n').at(-1)!;

describe('the inspector', () => {
	it('shows the activity and what the tool did: an exec as its command, exit status and output', async () => {
		const model = modelFromFixtures('real/tools.ndjson');
		const exec = activityOf(model, activity => activity.type === 'exec');
		const view = await open(model, exec.id, {height: 40});
		const frame = view.lastFrame()!;
		const lines = frame.split('\n').map(line => line.trimEnd());
		expect(lines[0]).toBe(' Inspector');
		expect(frame).toContain('⚡ exec · tools-expert');
		expect(lines[lines.indexOf('Command') + 1]).toBe('wc -l notes.md');
		expect(lines).toContain('Exit: 0');
		expect(lines[lines.indexOf('Output (stdout and stderr) (1 line)') + 1]).toBe('4 notes.md');
		expect(frame).not.toContain('"command": "wc"');
		view.unmount();
	});

	it('writes the raw event to a file with o, and says where or why it could not', async () => {
		const model = modelFromFixtures('real/tools.ndjson');
		const exec = activityOf(model, activity => activity.type === 'exec');
		const written = await open(model, exec.id, {env: {exportEvent: () => '/tmp/perscope-event.json'}});
		await written.press('o');
		expect(written.ui.getState().message).toBe('wrote /tmp/perscope-event.json');
		written.unmount();

		const failing = await open(model, exec.id, {
			env: {
				exportEvent: () => {
					throw new Error('read-only file system');
				},
			},
		});
		await failing.press('o');
		expect(failing.ui.getState().message).toBe('could not write the event: read-only file system');
		failing.unmount();
	});

	it('shows a cut result whole once what reads it again has arrived, when the inspector opened before it had', async () => {
		const {model, exec} = longExec(3);
		let arrive = () => {};
		let loaded = false;
		const whole: Activity = {...exec, result: {...exec.result!, text: JSON.stringify({output: 'line 1\nline 2\nline 3\nthe whole result'})}};
		const view = await open(model, exec.id, {
			env: {
				wholeResult(activity, arrived) {
					if (loaded) return activity.id === exec.id ? whole : activity;
					arrive = arrived;
					return undefined;
				},
			},
		});
		expect(view.lastFrame()).toContain('line 3');
		expect(view.lastFrame()).not.toContain('the whole result');
		loaded = true;
		arrive();
		await waitForFrame(view, text => text.includes('the whole result'));
		view.unmount();
	});

	it('says so when the activity is gone', async () => {
		const view = await open(createModel(), 'gone', {height: 10});
		expect(view.lastFrame()).toContain('This activity is no longer in the model.');
		view.unmount();
	});
});

describe('finding text in the inspector', () => {
	it('counts the matches as you type, scrolls to the first, and n / N move between them, wrapping round', async () => {
		const {model, exec} = longExec(200);
		const view = await open(model, exec.id, {height: 12});
		await view.press('/');
		expect(bottom(view.lastFrame()!)).toContain('type to find in this activity');
		// `line 19` is in line 19 and lines 190–199: the head shows up to line 40, the tail from line 181.
		await view.press('line 19');
		let frame = await waitForFrame(view, text => bottom(text).includes('1/11'));
		expect(bottom(frame)).toMatch(/^\/line 19 +1\/11 · enter keep · esc clear/);
		expect(body(frame)).toContain('line 19');
		await view.press(keys.enter);
		frame = await waitForFrame(view, text => bottom(text).includes('/line 19 1/11'));
		// `n` goes to the next match, out of sight below: the view moves to it.
		await view.press('n');
		frame = await waitForFrame(view, text => bottom(text).includes('/line 19 2/11'));
		expect(body(frame)).toContain('line 190');
		await view.press('N');
		await view.press('N');
		frame = await waitForFrame(view, text => bottom(text).includes('/line 19 11/11'));
		expect(body(frame)).toContain('line 199');
		view.unmount();
	});

	it('the current match stays current when e unfolds the blocks around it (regression: it was forgotten)', async () => {
		const {model, exec} = longExec(200);
		const view = await open(model, exec.id, {height: 12});
		await view.press('/');
		await view.press('line 19');
		await view.press(keys.enter);
		await view.press('n');
		await waitForFrame(view, text => bottom(text).includes('/line 19 2/11'));
		await view.press('e');
		// Unfolded, `line 190` is many lines further down, still the second of the eleven matches, and in view.
		let frame = await waitForFrame(view, text => bottom(text).includes('/line 19 2/11') && body(text).includes('line 190'));
		expect(body(frame)).toContain('line 190');
		await view.press('n');
		frame = await waitForFrame(view, text => bottom(text).includes('/line 19 3/11'));
		expect(body(frame)).toContain('line 191');
		view.unmount();
	});

	it('the first esc clears the search, the next closes the inspector', async () => {
		const {model, exec} = longExec(200);
		const view = await open(model, exec.id, {height: 12});
		await view.press('/');
		await view.press('notes');
		await view.press(keys.enter);
		await waitForFrame(view, text => /\/notes \d+\/\d+/.test(bottom(text)));
		await view.press(keys.escape);
		const cleared = await waitForFrame(view, text => !bottom(text).includes('/notes'));
		expect(cleared).toContain('Inspector');
		await view.press(keys.escape);
		await waitForFrame(view, text => text === 'closed');
		view.unmount();
	});

	it('says when nothing matches, and keeps n and the typed keys from the tree behind', async () => {
		const {model, exec} = longExec(10);
		const reached: Command[] = [];
		const view = await open(model, exec.id, {reached});
		await view.press('/');
		await view.press('xyzzy');
		await waitForFrame(view, text => bottom(text).includes('no match'));
		await view.press(keys.enter);
		await view.press('n');
		expect(reached).toEqual([]);
		view.unmount();
	});

	it('reopens with the last query selected: typing replaces it', async () => {
		const {model, exec} = longExec(200);
		const view = await open(model, exec.id, {height: 12});
		await view.press('/');
		await view.press('line 19');
		await view.press(keys.enter);
		await view.press('/');
		await view.press('line 200');
		const frame = await waitForFrame(view, text => bottom(text).startsWith('/line 200 '));
		expect(bottom(frame)).toContain('1/1');
		view.unmount();
	});
});

describe('folded blocks in the inspector', () => {
	it('enter unfolds the folded block in view, E folds it again, e unfolds every block', async () => {
		const {model, exec} = longExec(200);
		const view = await open(model, exec.id, {height: 200});
		const folded = view.lastFrame()!;
		expect(folded).toContain('… 140 lines left out …');
		expect(folded).toContain('⏎ show them · e unfold all');
		expect(body(folded)).not.toContain('line 100');
		await view.press(keys.enter);
		let frame = await waitForFrame(view, text => body(text).includes('line 100'));
		expect(frame).not.toContain('left out');
		expect(frame).toContain('Inspector');
		await view.press('E');
		frame = await waitForFrame(view, text => text.includes('… 140 lines left out …'));
		await view.press('e');
		frame = await waitForFrame(view, text => body(text).includes('line 100'));
		// With nothing folded in view, enter closes as it always did.
		await view.press(keys.enter);
		await waitForFrame(view, text => text === 'closed');
		view.unmount();
	});

	it('#32 §3.6 finds text in a folded block, unfolding it to the match; E folds again', async () => {
		const {model, exec} = longExec(200);
		const view = await open(model, exec.id, {height: 12});
		await view.press('/');
		await view.press('line 100');
		let frame = await waitForFrame(view, text => bottom(text).includes('1/1'));
		expect(body(frame)).toContain('line 100');
		expect(frame).not.toContain('left out');
		await view.press(keys.enter);
		await view.press('E');
		frame = await waitForFrame(view, text => text.includes('… 140 lines left out …') || bottom(text).includes('no match'));
		await view.press('n');
		frame = await waitForFrame(view, text => bottom(text).includes('/line 100 1/1') && body(text).includes('line 100'));
		expect(body(frame)).toContain('line 100');
		view.unmount();
	});
});
