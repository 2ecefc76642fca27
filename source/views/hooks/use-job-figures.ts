import {useEffect, useRef, useState} from 'react';
import type {Job, Model} from '../../model/state.js';
import type {JobFigures} from '../../query/job-figures.js';
import type {PriceTable} from '../../query/prices.js';
import type {FiguresCache} from '../../view-model/job-figures-cache.js';
import {useViewerWork} from '../contexts.js';

/**
 * The header's figures of the job it shows, once per model revision; for a job of many runs, made in slices
 * while those of the model before stay shown (view-model/job-figures-cache.ts). Draws again once they are made.
 */
export function useJobFigures(model: Model, job: Job | undefined, prices: PriceTable): JobFigures | undefined {
	const [, setMade] = useState(0);
	const work = useViewerWork();
	const cache = useRef<FiguresCache | undefined>(undefined);
	cache.current ??= work.figuresCache(() => {
		setMade(made => made + 1);
	});
	useEffect(
		() => () => {
			cache.current?.stop();
		},
		[],
	);
	return job ? cache.current.figuresFor(model, job, prices) : undefined;
}
