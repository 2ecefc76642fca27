import type {StreamDialect} from '../stream-dialect.js';
import {GeminiReader, GeminiSessions} from './normalise.js';

/** Gemini CLI `--output-format stream-json`, read per stream (normalise.ts). */
export const geminiDialect: StreamDialect = {
	name: 'gemini',
	recognises: value => GeminiReader.recognises(value),
	reader: () => new GeminiReader(),
	readers: () => {
		const sessions = new GeminiSessions();
		return () => new GeminiReader(sessions);
	},
};
