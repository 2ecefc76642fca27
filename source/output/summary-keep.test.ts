import {readFileSync} from 'node:fs';
import {relative} from 'node:path';
import {describe, expect, it} from 'vitest';
import {fixtureFiles, root} from '../../test/helpers/fixture-files.js';
import {modelFromText} from '../../test/helpers/load.js';
import {shapeLines, shapes} from '../../tools/shape-log.js';
import {createModel, endInput, keepFiguresOnly, type Model} from '../model/state.js';
import {summaryJsonPieces} from './summary.js';
import {summaryTable} from './summary-table.js';

/*
 * The summaries load a model that keeps figures only (app/headless.ts): they must read exactly as from a model
 * that keeps every activity, whatever the log, and also when the log is given twice (every event repeated).
 */

function summaries(text: Buffer | string, source: string, figuresOnly: boolean): {json: string; table: string} {
	const model: Model = createModel();
	if (figuresOnly) keepFiguresOnly(model);
	modelFromText(text, {source, model});
	endInput(model, {exitCode: undefined, lastStderr: undefined});
	return {json: [...summaryJsonPieces(model)].join(''), table: summaryTable(model)};
}

describe('summaries of a model that keeps figures only', () => {
	for (const file of fixtureFiles()) {
		const name = relative(root, file);
		it(`read as from a model that keeps everything: ${name}`, () => {
			const bytes = readFileSync(file);
			expect(summaries(bytes, name, true)).toEqual(summaries(bytes, name, false));
			const twice = Buffer.concat([bytes, Buffer.from('\n'), bytes]);
			expect(summaries(twice, name, true)).toEqual(summaries(twice, name, false));
		});
	}

	for (const shape of shapes) {
		it(`read as from a model that keeps everything: the ${shape} shape`, () => {
			const text = `${[...shapeLines({shape, runs: 300, seed: 1})].join('\n')}\n`;
			expect(summaries(text, shape, true)).toEqual(summaries(text, shape, false));
		});
	}
});
