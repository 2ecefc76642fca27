import type {InputPlan} from '../input/inputs.js';
import {loadInWorker, worthAWorker} from './viewer/load-in-worker.js';
import type {Loading, LoadOptions} from './loader.js';

/**
 * Starts loading the plan, in a worker when that is worth it (large plain files, a second CPU: see
 * worthAWorker), else on this thread; the caller gets the same Loading either way. A replay reads as events
 * fall due, so it has nothing to gain from a worker; the plain way of reading (fast: false) is this thread's. The loading code (parsers, reducer) is imported only
 * when this thread reads: a worker's load has no use for it here.
 */
export async function startLoad(plan: InputPlan, options: LoadOptions): Promise<Loading> {
	if (options.replay === undefined && options.fast !== false && worthAWorker(plan)) return loadInWorker(plan, options);
	const {loadHere} = await import('./load-here.js');
	return loadHere(plan, options);
}
