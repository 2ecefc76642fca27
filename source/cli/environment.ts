import type {LoadTuning} from '../load/tuning.js';

/*
 * The environment variables the CLI reads for its tests (and the benchmark), in this one place: tests that
 * run the real CLI set them to cut files into tiny chunks or to make the loader's workers share the chunks, so
 * that every path of the loader meets the fixtures. A person has no use for them; the loaders take them as
 * options (load/tuning.ts) and read no environment. A worker that fails is no switch of the CLI: the tests that
 * need one run the loaders in their own process, with a worker module of their own (LoadTuning).
 *
 *   PERSCOPE_CHUNK_BYTES=N         plain files are cut into chunks of N bytes
 *   PERSCOPE_WORKERS=N             N chunk workers parse beside the main thread
 *   PERSCOPE_MAIN_CLAIMS=0         the main thread leaves every chunk to the workers while one is alive
 *   PERSCOPE_OUTPUT_OPEN_MS=N      headless, an exited command's output open N ms with nothing coming is read no further
 */

/** A whole number of 0 or more, else undefined (unset, empty or anything else). */
function count(env: NodeJS.ProcessEnv, name: string): number | undefined {
	const value = env[name];
	if (value === undefined || value.trim() === '') return undefined;
	const number = Number(value);
	return Number.isInteger(number) && number >= 0 ? number : undefined;
}

export function loadTuningFrom(env: NodeJS.ProcessEnv): LoadTuning {
	return {
		chunkBytes: count(env, 'PERSCOPE_CHUNK_BYTES'),
		chunkWorkers: count(env, 'PERSCOPE_WORKERS'),
		mainThreadParses: count(env, 'PERSCOPE_MAIN_CLAIMS') !== 0,
		outputOpenAfterExitMs: count(env, 'PERSCOPE_OUTPUT_OPEN_MS'),
	};
}
