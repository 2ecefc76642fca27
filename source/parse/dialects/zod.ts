import {createRequire} from 'node:module';
import type {z as Zod} from 'zod';
import {lazily} from '../../model/lazily.js';

/*
 * zod, loaded the first time a schema is needed. Loading it and building the schemas takes longer than
 * reading a small log (docs/performance.md), and the lines of a well-formed Perstack log are read without it (see
 * perstack/fast-reader.ts); only a line that reader does not take, or another dialect, needs zod. Loading has to be
 * synchronous, in the middle of parsing a line, so it is zod's CommonJS build that is loaded. Every schema
 * of the program is built from this one copy.
 */

export const zod: () => typeof Zod = lazily(() => {
	const module: {z: typeof Zod} = createRequire(import.meta.url)('zod');
	return module.z;
});

/** A value built on first use (schemas, built from `zod()`), then kept. */
export {lazily};
