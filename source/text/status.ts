import type {RunStatus} from '../model/events.js';

/** What a state's colour means: the views' palette (views/palette.ts) gives each a colour. */
export type StatusTone = 'muted' | 'running' | 'success' | 'waiting' | 'warning' | 'error';

/** How a run's state reads on screen: a glyph, a word, and the tone of its colour. */
export type StatusLook = {glyph: string; word: string; tone: StatusTone};

export const statusLook: Record<RunStatus, StatusLook> = {
	init: {glyph: '·', word: 'starting', tone: 'muted'},
	proceeding: {glyph: '●', word: 'running', tone: 'running'},
	completed: {glyph: '✓', word: 'completed', tone: 'success'},
	stoppedByInteractiveTool: {glyph: '⏸', word: 'waiting for input', tone: 'waiting'},
	stoppedByDelegate: {glyph: '⏸', word: 'waiting for delegates', tone: 'waiting'},
	stoppedByExceededMaxSteps: {glyph: '⏹', word: 'max steps', tone: 'warning'},
	stoppedByError: {glyph: '✗', word: 'error', tone: 'error'},
};

/** A run that waited for delegates when the job ended (model/tree.ts, `endedWhileWaiting`): it will never go on. */
export const endedWhileWaitingLook: StatusLook = {glyph: '✗', word: 'job ended while waiting', tone: 'error'};

/** A run still running when the input ended (query/tree.ts, `endedWithoutFinalEvent`): how it ended is not known. */
export const endedWithoutFinalEventLook: StatusLook = {glyph: '✗', word: 'ended without a final event', tone: 'error'};
