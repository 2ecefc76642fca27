import {useEffect, useSyncExternalStore} from 'react';
import {isLoading} from '../../input/source-state.js';
import {useViewEnv, useViewerWork} from '../contexts.js';

/** Draws the caller again whenever a search or a filter running in slices moves on or ends (its count, its progress). */
export function useSearchProgress(): number {
	const {progress} = useViewerWork();
	return useSyncExternalStore(progress.subscribe, progress.version);
}

/**
 * Starts making the searchable texts ahead for each model the view is given, once the file is read (slices
 * wait while it is): the first key of a search after a load then reads them instead of making them.
 */
export function useSearchAhead(): void {
	const {model, sources, work} = useViewEnv();
	const {rev} = model;
	useEffect(() => {
		work.texts.prepare(model, () => sources.some(isLoading));
	}, [model, rev, sources, work]);
}
