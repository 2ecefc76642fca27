import React, {useRef} from 'react';
import {render} from 'ink-testing-library';
import {describe, expect, it} from 'vitest';
import {keys, settle} from '../../test/helpers/app.js';
import type {Command} from './keymap.js';
import {KeypressProvider, priorities, useCommands, useTextCapture} from './keypress.js';

type Log = string[];

function Handler({name, priority, log, uses}: {name: string; priority: number; log: Log; uses: (command: Command) => boolean}) {
	useCommands(priority, command => {
		log.push(`${name}:${command}`);
		return uses(command);
	});
	return null;
}

/** Starts capturing typed text after `/`, as the search prompt does, until enter. */
function Typing({log}: {log: Log}) {
	const open = useRef(false);
	useCommands(priorities.confirm, command => {
		if (command !== 'search.open') return false;
		open.current = true;
		return true;
	});
	useTextCapture(
		(input, key) => {
			if (key.return) open.current = false;
			else log.push(`typed:${input}${key.backspace ? '<backspace>' : ''}${key.delete ? '<delete>' : ''}`);
		},
		() => open.current,
	);
	return null;
}

async function pressAll(element: React.ReactElement, input: string) {
	const view = render(<KeypressProvider>{element}</KeypressProvider>);
	await settle();
	view.stdin.write(input);
	await settle();
	view.unmount();
}

describe('key handling', () => {
	it('offers a command to the highest priority first, and lower ones only what it leaves', async () => {
		const log: Log = [];
		await pressAll(
			<>
				<Handler name="tree" priority={priorities.tree} log={log} uses={() => true} />
				<Handler name="overlay" priority={priorities.overlay} log={log} uses={command => command === 'nav.down'} />
			</>,
			'j',
		);
		await pressAll(
			<>
				<Handler name="tree" priority={priorities.tree} log={log} uses={() => true} />
				<Handler name="overlay" priority={priorities.overlay} log={log} uses={command => command === 'nav.down'} />
			</>,
			'q',
		);
		expect(log).toEqual(['overlay:nav.down', 'overlay:app.quit', 'tree:app.quit']);
	});

	it('turns each character of a fast read into its own command', async () => {
		const log: Log = [];
		await pressAll(<Handler name="tree" priority={priorities.tree} log={log} uses={() => true} />, 'jjk');
		expect(log).toEqual(['tree:nav.down', 'tree:nav.down', 'tree:nav.up']);
	});

	it('sends typed text to the prompt once it opens, even within the same read, as one text, and commands again after enter', async () => {
		const log: Log = [];
		await pressAll(
			<>
				<Typing log={log} />
				<Handler name="tree" priority={priorities.tree} log={log} uses={command => command !== 'search.open'} />
			</>,
			`/jq${keys.enter}j`,
		);
		// The characters typed in a row come as one text: a paste is one edit (issue #34).
		expect(log).toEqual(['typed:jq', 'tree:nav.down']);
	});

	it('gives a paste of 40,000 characters to the prompt as one text, not as 40,000 keys each editing the whole line', async () => {
		const log: Log = [];
		const pasted = 'abcdefghij'.repeat(4000);
		await pressAll(
			<>
				<Typing log={log} />
				<Handler name="tree" priority={priorities.tree} log={log} uses={command => command !== 'search.open'} />
			</>,
			`/${pasted}\u007F${pasted}${keys.enter}j`,
		);
		// A key of its own (Backspace) between two runs of characters comes between them.
		expect(log).toEqual([`typed:${pasted}`, 'typed:<backspace>', `typed:${pasted}`, 'tree:nav.down']);
	});

	it('tells Backspace (DEL) from the Delete key (ESC [3~), which Ink names alike', async () => {
		const log: Log = [];
		const view = render(
			<KeypressProvider>
				<Typing log={log} />
			</KeypressProvider>,
		);
		await settle();
		for (const input of ['/', '\u007F', '\u001B[3~', '\b']) {
			view.stdin.write(input);
			await settle();
		}

		view.unmount();
		expect(log).toEqual(['typed:<backspace>', 'typed:<delete>', 'typed:<backspace>']);
	});

	it('offers Ctrl-Z as a command even while a line is being typed', async () => {
		const log: Log = [];
		await pressAll(
			<>
				<Typing log={log} />
				<Handler name="app" priority={priorities.app} log={log} uses={() => true} />
			</>,
			'/a\u001Ab',
		);
		expect(log).toEqual(['typed:a', 'app:app.suspend', 'typed:b']);
	});
});
