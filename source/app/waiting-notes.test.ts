import {describe, expect, it} from 'vitest';
import {initialSourceState, type SourceState} from '../input/source-state.js';
import {resolveInputs} from '../input/inputs.js';
import {waitingNotes} from './waiting-notes.js';

function followed(path: string): SourceState {
	const [input] = resolveInputs([path], {stdinIsTTY: false, follow: true}).inputs;
	if (!input) throw new Error('no input');
	return initialSourceState(input);
}

function watch(state: SourceState) {
	const notes: string[] = [];
	const changed = waitingNotes(
		() => [state],
		text => notes.push(text),
		text => text.replaceAll('\u001b', '␛'),
	);
	return {notes, changed};
}

describe('the notes of a followed file that does not exist yet', () => {
	it('says once that it waits, and once that the file appeared when it has a size', () => {
		const state = followed('/tmp/later.ndjson');
		const {notes, changed} = watch(state);
		state.waiting = true;
		changed();
		changed();
		state.waiting = false;
		// Opened, its size not known yet: not said until it is.
		changed();
		state.bytesTotal = 0;
		changed();
		changed();
		expect(notes).toEqual([
			'perscope: /tmp/later.ndjson does not exist yet; waiting for it (--follow)\n',
			'perscope: /tmp/later.ndjson appeared; reading it\n',
		]);
	});

	it('says nothing appeared when the wait is stopped (Ctrl-C, SIGTERM)', () => {
		const state = followed('/tmp/never.ndjson');
		const {notes, changed} = watch(state);
		state.waiting = true;
		changed();
		state.waiting = false;
		changed();
		state.live = false;
		changed();
		expect(notes).toEqual(['perscope: /tmp/never.ndjson does not exist yet; waiting for it (--follow)\n']);
	});

	it('regression: a followed file removed and waited for again was said not to exist yet: it is gone, and waited for again', () => {
		const state = followed('/tmp/chat.json');
		const {notes, changed} = watch(state);
		state.bytesTotal = 4096;
		changed();
		state.waiting = true;
		changed();
		state.waiting = false;
		changed();
		expect(notes).toEqual([
			'perscope: /tmp/chat.json is gone (removed or renamed); waiting for it to appear again (--follow)\n',
			'perscope: /tmp/chat.json appeared; reading it\n',
		]);
	});

	it('shows a file name inert', () => {
		const state = followed('/tmp/a\u001b[2J.ndjson');
		const {notes, changed} = watch(state);
		state.waiting = true;
		changed();
		expect(notes[0]).toBe('perscope: /tmp/a␛[2J.ndjson does not exist yet; waiting for it (--follow)\n');
	});
});
