import {describe, expect, it} from 'vitest';
import {endedWhileWaitingLook, statusLook} from './status.js';

describe('how a run status reads', () => {
	it('gives each status its own word', () => {
		const words = Object.values(statusLook).map(look => look.word);
		expect(new Set(words).size).toBe(words.length);
	});

	it('marks success green with a tick, errors red with a cross', () => {
		expect(statusLook.completed).toEqual({glyph: '✓', word: 'completed', tone: 'success'});
		expect(statusLook.stoppedByError).toEqual({glyph: '✗', word: 'error', tone: 'error'});
	});

	it('says what a stopped run waits for', () => {
		expect(statusLook.stoppedByDelegate.word).toBe('waiting for delegates');
		expect(statusLook.stoppedByInteractiveTool.word).toBe('waiting for input');
		expect(statusLook.stoppedByExceededMaxSteps.word).toBe('max steps');
	});

	it('shows a run that the job left waiting as a failure, not as a pause', () => {
		expect(endedWhileWaitingLook.tone).toBe('error');
		expect(endedWhileWaitingLook.glyph).not.toBe(statusLook.stoppedByDelegate.glyph);
		expect(endedWhileWaitingLook.word).toBe('job ended while waiting');
	});
});
