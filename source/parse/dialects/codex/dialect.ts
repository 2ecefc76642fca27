import type {StreamDialect} from '../stream-dialect.js';
import {CodexReader} from './normalise.js';

/** Codex `codex exec --json`, read per stream (normalise.ts). */
export const codexDialect: StreamDialect = {
	name: 'codex',
	recognises: value => CodexReader.recognises(value),
	reader: options => new CodexReader(options),
};
