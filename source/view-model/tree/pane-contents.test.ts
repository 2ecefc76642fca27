import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath, modelFromText} from '../../../test/helpers/load.js';
import {shapeLines} from '../../../tools/shape-log.js';
import type {Model} from '../../model/state.js';
import {PaneContents, paneContent, type PaneContent} from './pane-contents.js';
import {PaneLists} from './pane-lists.js';
import {placeChildren} from './placement.js';

/*
 * The contents carried from one revision of a model changed in place to the next are the contents worked out
 * fresh: a stream read line by line, each line's model asked through the contents carried since the first line.
 */

function linesOf(name: string): string[] {
	return readFileSync(fixturePath(name), 'utf8')
		.split('\n')
		.filter(line => line !== '');
}

/** What a layout reads of a content. */
function shown(content: PaneContent): unknown {
	const {list, ascending, delegations, delegates} = content;
	return {list: [...list], ascending, delegations: [...delegations], delegates};
}

describe('pane contents carried from revision to revision', () => {
	const logs: Array<[string, string[]]> = [
		['parallel-delegate', linesOf('parallel-delegate.ndjson')],
		// Children before the delegations that made them: a delegation gets its child runs after it was made.
		['nested-delegate reversed', [...linesOf('nested-delegate.ndjson')].reverse()],
		['continue-followup then interactive', [...linesOf('continue-followup.ndjson'), ...linesOf('interactive.ndjson')]],
		['resume-from', linesOf('branches/3-resume-from.ndjson')],
		['wide', [...shapeLines({shape: 'wide', runs: 12, seed: 7})].filter(line => line !== '')],
		['tree', [...shapeLines({shape: 'tree', runs: 20, seed: 7})].filter(line => line !== '')],
	];

	for (const [name, lines] of logs) {
		it(`are the fresh ones at every line of ${name}`, () => {
			let model: Model | undefined;
			let contents: PaneContents | undefined;
			for (const [at, line] of lines.entries()) {
				model = modelFromText(`${line}\n`, model ? {model} : {});
				contents = new PaneContents(model, contents);
				for (const pane of model.panes.values()) expect(shown(contents.of(pane)), `line ${at}, pane ${pane.paneId}`).toEqual(shown(paneContent(model, pane)));
			}
		});

		it(`place children where a fresh placing does at every line of ${name}`, () => {
			let model: Model | undefined;
			let contents: PaneContents | undefined;
			const idOf = (child: {pane: {paneId: string}}): string => child.pane.paneId;
			for (const [at, line] of lines.entries()) {
				model = modelFromText(`${line}\n`, model ? {model} : {});
				contents = new PaneContents(model, contents);
				// Children found anew each line, as a layout does once a run links: equal lists, new arrays.
				const lists = new PaneLists(model, model.rev);
				for (const pane of model.panes.values()) {
					const children = lists.childPanesOf(pane);
					const content = contents.of(pane);
					const carried = contents.placedAmong(content, children, () => placeChildren(model!, content.list, children, idOf, content.delegations));
					const fresh = placeChildren(model, paneContent(model, pane).list, children, idOf);
					const ids = (placed: ReadonlyArray<{child: {pane: {paneId: string}}; after: number}>): unknown =>
						placed.map(({child, after}) => [idOf(child), after]);
					expect(ids(carried), `line ${at}, pane ${pane.paneId}`).toEqual(ids(fresh));
				}
			}
		});
	}

	it('sees a delegation get its child run, though the pane it is in did not change (a delegation replaced by a copy)', () => {
		let model: Model | undefined;
		let contents: PaneContents | undefined;
		let flippedAtSameRev = false;
		const before = new Map<string, {delegates: boolean; rev: number}>();
		for (const line of linesOf('nested-delegate.ndjson')) {
			model = modelFromText(`${line}\n`, model ? {model} : {});
			contents = new PaneContents(model, contents);
			for (const pane of model.panes.values()) {
				const {delegates} = contents.of(pane);
				const earlier = before.get(pane.paneId);
				if (earlier?.delegates === false && delegates && earlier.rev === pane.rev) flippedAtSameRev = true;
				before.set(pane.paneId, {delegates, rev: pane.rev});
			}
		}

		expect(flippedAtSameRev).toBe(true);
	});

	it('carries nothing to a new model object (a load in a worker posts one, its lists maybe the old ones changed)', () => {
		const lines = linesOf('parallel-delegate.ndjson');
		const first = modelFromText(`${lines.slice(0, 10).join('\n')}\n`);
		const contents = new PaneContents(first);
		for (const pane of first.panes.values()) contents.of(pane);
		const second = modelFromText(`${lines.join('\n')}\n`);
		const carried = new PaneContents(second, contents);
		for (const pane of second.panes.values()) expect(shown(carried.of(pane))).toEqual(shown(paneContent(second, pane)));
	});
});
