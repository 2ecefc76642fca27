import {useEffect, useSyncExternalStore} from 'react';
import {isLoading} from '../../input/source-state.js';
import {useViewEnv} from '../contexts.js';
import {prepareSearchAhead, searchVersion, subscribeSearch} from '../../view-model/search/find.js';

/** Draws the caller again whenever a search running in slices finds more or ends (its count, its progress). */
export function useSearchProgress(): number {
	return useSyncExternalStore(subscribeSearch, searchVersion);
}

/**
 * Starts making the searchable texts ahead for each model the view is given, once the file is read (slices
 * wait while it is): the first key of a search after a load then reads them instead of making them.
 */
export function useSearchAhead(): void {
	const {model, sources} = useViewEnv();
	const {rev} = model;
	useEffect(() => {
		prepareSearchAhead(model, () => sources.some(isLoading));
	}, [model, rev, sources]);
}
