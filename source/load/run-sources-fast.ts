import type {Ingest} from './ingest.js';
import type {InputPlan} from '../input/inputs.js';
import {plainFiles} from '../input/plain-files.js';
import {runSources} from '../input/run-sources.js';
import type {RunningSources, SourcesHooks} from '../input/source-state.js';
import {runPlainFiles, type FastOptions} from './parallel/parallel-file.js';

/**
 * Reads the plan's inputs, the fast way when every input is a plain file read once (parallel/parallel-file.ts),
 * else through runSources. For the loaders that take any plan; the headless modes choose between the two
 * themselves, so that reading a plain file does not load runSources' modules (app/headless.ts).
 */
export function runSourcesFast(plan: InputPlan, ingest: Ingest, hooks: SourcesHooks = {}, options: FastOptions = {}): RunningSources {
	const files = plainFiles(plan);
	return files ? runPlainFiles(plan, files, ingest, hooks, options) : runSources(plan, ingest, hooks);
}
