import type {StreamDialect} from '../stream-dialect.js';
import {OpencodeReader} from './reader.js';

/** opencode `run --format json`, read per stream (reader.ts). */
export const opencodeDialect: StreamDialect = {
	name: 'opencode',
	recognises: value => OpencodeReader.recognises(value),
	reader: () => new OpencodeReader(),
};
