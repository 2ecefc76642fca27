import {readFileSync} from 'node:fs';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {fixtureFiles} from '../../../test/helpers/fixture-files.js';
import {modelSnapshot} from '../../../test/helpers/model-snapshot.js';
import {createModel, type Model} from '../../model/state.js';
import {shapeLines} from '../../../tools/shape-log.js';
import {applyChanges} from '../../../test/helpers/apply-changes.js';
import {ChangeTracker} from './change-tracker.js';
import {Ingest} from '../ingest.js';
import {splitChanges} from './split-changes.js';
import {expectSame} from '../../../test/helpers/expect-same.js';

/*
 * The load worker sends each post of what changed in pieces, so that the viewer's thread decodes a little at a
 * time. Put in one after the other, the pieces make the model the whole post makes.
 */

const fixtureLines = fixtureFiles().map(path =>
	readFileSync(path, 'utf8')
		.split('\n')
		.filter(line => line !== ''),
);
const logs = fc.oneof(
	fc.constantFrom(...fixtureLines),
	fc
		.record({
			shape: fc.constantFrom('wide' as const, 'tree' as const, 'chain' as const, 'tools' as const),
			runs: fc.integer({min: 2, max: 300}),
			seed: fc.integer({min: 1, max: 100}),
		})
		.map(options => [...shapeLines(options)]),
);

describe('a post sent in pieces', () => {
	it('makes, piece after piece, the model the whole post makes, wherever the posts fall and however small the pieces', () => {
		fc.assert(
			fc.property(logs, fc.array(fc.double({min: 0, max: 1, noNaN: true}), {maxLength: 4}), fc.integer({min: 1, max: 40}), (lines, cuts, items) => {
				// A model is posted by one tracker (it empties the reducer's notes of changed step records): one each.
				const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024});
				const splitter = ingest.splitter('test');
				const other = new Ingest({maxLineBytes: 64 * 1024 * 1024});
				const otherSplitter = other.splitter('test');
				const whole = new ChangeTracker();
				const inPieces = new ChangeTracker();
				let wholeModel: Model = createModel();
				let piecesModel: Model = createModel();
				let read = 0;
				for (const at of [...cuts.map(cut => Math.floor(cut * lines.length)).sort((a, b) => a - b), lines.length]) {
					for (const line of lines.slice(read, Math.max(read, at))) {
						splitter.push(Buffer.from(line + '\n'));
						otherSplitter.push(Buffer.from(line + '\n'));
					}

					read = Math.max(read, at);
					wholeModel = applyChanges(wholeModel, structuredClone(whole.changes(ingest.model)));
					const pieces = splitChanges(inPieces.changes(other.model), items);
					expect(pieces.filter(piece => piece.last)).toHaveLength(1);
					expect(pieces.at(-1)!.last).toBe(true);
					// The viewer keeps the model the last piece gives; the pieces before it fill its maps and lists.
					for (const piece of pieces) {
						const next = applyChanges(piecesModel, structuredClone(piece.changes));
						if (piece.last) piecesModel = next;
					}

					expectSame(modelSnapshot(piecesModel), modelSnapshot(wholeModel));
				}
			}),
			{numRuns: 60},
		);
	});

	it('keeps a small post whole', () => {
		const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024});
		const splitter = ingest.splitter('test');
		for (const line of shapeLines({shape: 'wide', runs: 3, seed: 1})) splitter.push(Buffer.from(line + '\n'));
		expect(splitChanges(new ChangeTracker().changes(ingest.model))).toHaveLength(1);
	});
});
