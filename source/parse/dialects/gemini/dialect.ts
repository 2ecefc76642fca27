import type {StreamDialect} from '../stream-dialect.js';
import {GeminiReader} from './normalise.js';

/** Gemini CLI `--output-format stream-json`, read per stream (normalise.ts). */
export const geminiDialect: StreamDialect = {
	name: 'gemini',
	recognises: value => GeminiReader.recognises(value),
	reader: options => new GeminiReader(options),
};
