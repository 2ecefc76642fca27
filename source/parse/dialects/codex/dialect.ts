import type {StreamDialect} from '../stream-dialect.js';
import {CodexReader, CodexThreads} from './normalise.js';

/** Codex `codex exec --json`, read per stream (normalise.ts). */
export const codexDialect: StreamDialect = {
	name: 'codex',
	recognises: value => CodexReader.recognises(value),
	reader: options => new CodexReader(options),
	readers: () => {
		const threads = new CodexThreads();
		return options => new CodexReader(options, threads);
	},
};
