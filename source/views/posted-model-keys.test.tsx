import {describe, expect, it, vi} from 'vitest';
import {renderApp, waitForFrame} from '../../test/helpers/app.js';
import {modelFromText} from '../../test/helpers/load.js';
import {manualScheduler} from '../../test/helpers/manual-scheduler.js';
import {shapeLines} from '../../tools/shape-log.js';
import {ViewerWork} from '../view-model/viewer-work.js';

/*
 * A load in a worker posts a new model now and then; a large one is laid out in slices while the tree goes on
 * showing the layout before it (view-model/tree/layouts.ts). The keys that act on the selected row read the rows
 * on screen: rows of their own for the newest model laid the whole tree out in the key.
 */

describe('keys while a posted model is laid out in slices', () => {
	it('regression: / after a load of many runs opened the prompt only once the whole tree was laid out again in the key (591 ms at 200,000 runs)', async () => {
		// Past the 5,000 panes from which a posted model is laid out in slices.
		const text = [...shapeLines({shape: 'wide', runs: 6000, seed: 1})].join('\n') + '\n';
		const scheduler = manualScheduler();
		const work = new ViewerWork(scheduler);
		const app = renderApp(modelFromText(text), {work});
		await waitForFrame(app, frame => /expert-\d/.test(frame));
		// The load's last post: a new model object of as many panes, which the tree lays out in slices (none run here).
		const posted = modelFromText(text);
		app.store.setModel(posted);
		app.store.tick();
		const layoutFor = vi.spyOn(work.layouts, 'layoutFor');
		await app.press('/');
		await waitForFrame(app, frame => frame.includes('type to search'));
		expect(layoutFor.mock.calls.filter(([model]) => model === posted)).toEqual([]);
		// Once its slices have run, the posted model is on screen and the search goes on from the row selected.
		scheduler.runAll();
		await app.press('expert-1');
		await waitForFrame(app, frame => /\/expert-1 .*matches/.test(frame));
		app.unmount();
	});
});
