import {useRef} from 'react';
import {describe, expect, it} from 'vitest';
import {keys, waitForFrame} from '../../../test/helpers/app.js';
import {modelFromFixtures} from '../../../test/helpers/load.js';
import {renderView} from '../../../test/helpers/views.js';
import {displayWidth} from '../../text/width/width.js';
import {describeFilter} from '../../query/filter.js';
import {findMatches} from '../../query/search.js';
import {lineOf} from '../../view-model/line-editor.js';
import {PromptLine} from './prompt-line.js';
import {usePromptKeys} from '../hooks/use-prompt-keys.js';
import {initialUiState, type PromptKind} from '../../view-model/ui-state.js';

/** The prompt line with its keys, the search starting from `anchor` (an activity index). */
function Prompt({anchor, width = 100}: {anchor: number | undefined; width?: number}) {
	const from = useRef(anchor);
	usePromptKeys(from, () => undefined);
	return <PromptLine width={width} />;
}

function openPrompt(kind: PromptKind, anchor?: number, options: {text?: string; history?: string[]; width?: number} = {}) {
	const model = modelFromFixtures('demo.ndjson');
	const prompt = {kind, ...lineOf(options.text ?? '', true), error: undefined, recall: undefined};
	const view = renderView(<Prompt anchor={anchor} width={options.width} />, {
		model,
		ui: {prompt, history: {...initialUiState.history, [kind]: options.history ?? []}},
	});
	return {model, view};
}

const ctrl = (letter: string) => String.fromCodePoint(letter.codePointAt(0)! - 96);

describe('the search prompt', () => {
	it('tells how to use it before anything is typed', async () => {
		const {view} = openPrompt('search');
		expect(await waitForFrame(view, text => text.startsWith('/'))).toBe('/   type to search · enter keep · esc clear');
		view.unmount();
	});

	it('searches as you type, jumping to the first match, and counts the matches', async () => {
		const {model, view} = openPrompt('search');
		await view.press('vitest');
		const matches = findMatches(model, 'vitest');
		const frame = await waitForFrame(view, text => text.startsWith('/vitest'));
		expect(frame).toBe(`/vitest   1/${matches.length} matches`);
		expect(view.ui.getState().search).toEqual({query: 'vitest', current: matches[0]});
		view.unmount();
	});

	it('starts from where the selection was when the search began', async () => {
		const {model, view} = openPrompt('search', 20);
		const matches = findMatches(model, 'vitest');
		const after = matches.find(index => index >= 20);
		expect(after).toBeDefined();
		await view.press('vitest');
		await waitForFrame(view, text => text.startsWith('/vitest'));
		expect(view.ui.getState().search.current).toBe(after);
		view.unmount();
	});

	it('deletes with backspace, keeps the search on enter and clears it on esc', async () => {
		const {view} = openPrompt('search');
		await view.press('npmx');
		await view.press('\u007F');
		await waitForFrame(view, text => text.startsWith('/npm '));
		await view.press(keys.enter);
		expect(view.ui.getState().prompt).toBeUndefined();
		expect(view.ui.getState().search.query).toBe('npm');
		view.unmount();

		const cleared = openPrompt('search').view;
		await cleared.press('npm');
		await cleared.press(keys.escape);
		expect(cleared.ui.getState().prompt).toBeUndefined();
		expect(cleared.ui.getState().search.query).toBe('');
		cleared.unmount();
	});
});

describe('the filter prompt', () => {
	it('lists the filter terms while typing, and applies the filter on enter', async () => {
		const {view} = openPrompt('filter');
		expect(await waitForFrame(view, text => text.startsWith(':'))).toMatch(/^: {3}type:exec expert:NAME run:ID errors step:10-20 text/);
		await view.press('type:exec');
		await view.press(keys.enter);
		expect(view.ui.getState().prompt).toBeUndefined();
		expect(describeFilter(view.ui.getState().filter)).toBe('type:exec');
		view.unmount();
	});

	it('shows why a filter does not parse and keeps the prompt open', async () => {
		const {view} = openPrompt('filter');
		await view.press('step:abc');
		await view.press(keys.enter);
		const frame = await waitForFrame(view, text => text.includes('is not a step'));
		expect(frame).toMatch(/^:step:abc {3}"step:abc" is not a step or a range/);
		expect(view.ui.getState().prompt?.kind).toBe('filter');
		expect(view.ui.getState().filter.clauses).toEqual([]);
		view.unmount();
	});
});

describe('editing a prompt line', () => {
	it('moves the cursor and inserts where it is: ←, Home, End, Ctrl-A, Ctrl-E', async () => {
		const {view} = openPrompt('filter');
		await view.press('type:exec');
		await view.press(ctrl('a'));
		await view.press('-');
		await view.press(ctrl('e'));
		await view.press(' x');
		await view.press(keys.left);
		await view.press('y');
		expect(view.ui.getState().prompt).toMatchObject({text: '-type:exec yx', cursor: 12});
		await view.press('\u001B[H');
		await view.press('!');
		await view.press('\u001B[F');
		await view.press('?');
		expect(view.ui.getState().prompt?.text).toBe('!-type:exec yx?');
		view.unmount();
	});

	it('deletes as a shell does: backspace before the cursor, Delete under it, Ctrl-W a word, Ctrl-U and Ctrl-K to either end', async () => {
		const {view} = openPrompt('filter');
		await view.press('type:exec vercel');
		await view.press(keys.left);
		await view.press('\u007F');
		expect(view.ui.getState().prompt?.text).toBe('type:exec vercl');
		await view.press('\u001B[3~');
		expect(view.ui.getState().prompt?.text).toBe('type:exec verc');
		await view.press(ctrl('w'));
		expect(view.ui.getState().prompt?.text).toBe('type:exec ');
		await view.press('abc');
		await view.press(keys.left);
		await view.press(ctrl('k'));
		expect(view.ui.getState().prompt?.text).toBe('type:exec ab');
		await view.press(keys.left);
		await view.press(ctrl('u'));
		expect(view.ui.getState().prompt).toMatchObject({text: 'b', cursor: 0});
		view.unmount();
	});

	it('reopens with the last query selected: typing replaces it instead of appending to it', async () => {
		const {view} = openPrompt('search', undefined, {text: 'vitest'});
		await view.press('npm');
		expect(view.ui.getState().prompt?.text).toBe('npm');
		expect(view.ui.getState().search.query).toBe('npm');
		view.unmount();
	});

	it('keeps a reopened query for editing after a movement key', async () => {
		const {view} = openPrompt('search', undefined, {text: 'vitest'});
		await view.press(keys.left);
		await view.press('X');
		expect(view.ui.getState().prompt?.text).toBe('vitesXt');
		view.unmount();
	});

	it('goes through the lines entered before with ↑ and ↓, back to what was being typed', async () => {
		const {view} = openPrompt('filter', undefined, {history: ['type:exec', 'errors']});
		await view.press('exp');
		await view.press(keys.up);
		expect(view.ui.getState().prompt?.text).toBe('errors');
		await view.press(keys.up);
		expect(view.ui.getState().prompt?.text).toBe('type:exec');
		await view.press(keys.down);
		await view.press(keys.down);
		expect(view.ui.getState().prompt?.text).toBe('exp');
		view.unmount();
	});

	it('remembers what was entered, for the session, per prompt', async () => {
		const {view} = openPrompt('filter');
		await view.press('type:exec');
		await view.press(keys.enter);
		expect(view.ui.getState().history).toEqual({search: [], filter: ['type:exec'], answer: []});
		view.unmount();
	});
});

describe('a prompt holding wide characters', () => {
	it('is cut to its width, never a column wider, at every width, showing the end where the cursor is', async () => {
		for (const width of [20, 21, 33]) {
			const {view} = openPrompt('search', undefined, {width});
			await view.press('日本語のクエリをここに入力します');
			const frame = await waitForFrame(view, text => text.startsWith('/…') && text.includes('します'));
			expect(displayWidth(frame)).toBeLessThanOrEqual(width);
			view.unmount();
		}
	});
});
