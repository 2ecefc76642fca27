import {setFlagsFromString} from 'node:v8';
import {runInNewContext} from 'node:vm';

/*
 * Heap measurements for memory tests. `--expose-gc` can be switched on after start-up; a fresh context
 * then sees `gc`. Collecting twice lets weak references and finalisers settle before measuring.
 */

setFlagsFromString('--expose-gc');
const found: unknown = runInNewContext('gc');

/** A full collection, twice. */
export function collect(): void {
	if (typeof found !== 'function') throw new Error('gc is not available');
	Reflect.apply(found, undefined, []);
	Reflect.apply(found, undefined, []);
}

/** Heap in use after a full collection, in bytes. */
export function settledHeap(): number {
	collect();
	return process.memoryUsage().heapUsed;
}

export const megabyte = 1024 * 1024;
