import {readFileSync} from 'node:fs';
import {relative} from 'node:path';
import {describe, expect, it} from 'vitest';
import {runChangesWithoutRev} from '../../test/fuzz/invariants.js';
import {fixtureFiles, root} from '../../test/helpers/fixture-files.js';

/*
 * A run's `rev` changes whenever anything about the run changes: views skip drawing runs whose rev is the
 * same.
 * Mutated fixtures are checked the same way in test/fuzz/model.fuzz.test.ts.
 */

function linesOf(path: string): Buffer[] {
	return readFileSync(path, 'utf8')
		.split('\n')
		.map(line => Buffer.from(line));
}

describe('a run’s rev', () => {
	it('changes with every change to the run, over every fixture', () => {
		for (const path of fixtureFiles()) expect(runChangesWithoutRev(linesOf(path)), relative(root, path)).toEqual([]);
	});

	it('changes with every change to the run when the lines come out of order', () => {
		// Children before parents, results before calls: the reducer adopts and links runs after the fact.
		for (const path of fixtureFiles()) expect(runChangesWithoutRev(linesOf(path).reverse()), `${relative(root, path)}, reversed`).toEqual([]);
	});
});
