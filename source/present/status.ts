import type {RunStatus} from '../model/events.js';

/** How a run's state reads on screen: a glyph, a word, and a colour. */
export type StatusLook = {glyph: string; word: string; color: string};

export const statusLook: Record<RunStatus, StatusLook> = {
	init: {glyph: '·', word: 'starting', color: 'gray'},
	proceeding: {glyph: '●', word: 'running', color: 'yellow'},
	completed: {glyph: '✓', word: 'completed', color: 'green'},
	stoppedByInteractiveTool: {glyph: '⏸', word: 'waiting for input', color: 'cyan'},
	stoppedByDelegate: {glyph: '⏸', word: 'waiting for delegates', color: 'cyan'},
	stoppedByExceededMaxSteps: {glyph: '⏹', word: 'max steps', color: 'yellow'},
	stoppedByError: {glyph: '✗', word: 'error', color: 'red'},
};

/** A run that waited for delegates when the job ended (model/tree.ts, `endedWhileWaiting`): it will never go on. */
export const endedWhileWaitingLook: StatusLook = {glyph: '✗', word: 'job ended while waiting', color: 'red'};

/** A run still running when the input ended (query/tree.ts, `endedWithoutFinalEvent`): how it ended is not known. */
export const endedWithoutFinalEventLook: StatusLook = {glyph: '✗', word: 'ended without a final event', color: 'red'};
