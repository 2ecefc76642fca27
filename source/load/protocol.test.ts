import {relative} from 'node:path';
import {describe, expect, it} from 'vitest';
import {Ingest} from './ingest.js';
import type {Model} from '../model/state.js';
import {TextAccumulator} from '../model/text-accumulator.js';
import {modelFromPost, modelToPost} from './protocol.js';
import {runSources} from '../input/run-sources.js';
import {fixtureFiles, root} from '../../test/helpers/fixture-files.js';
import {modelSnapshot} from '../../test/helpers/model-snapshot.js';

/*
 * The viewer's load worker posts its model to the viewer (load-worker.ts): what arrives must be the model
 * itself, streamed text included, and must go on changing as the original would.
 */

/** The value as it arrives on the other side of a postMessage. */
function posted<T>(value: T): T {
	return structuredClone(value);
}

/** The model as the viewer gets it from what the worker posts (load-in-worker.ts). */
function postedModel(model: Model): Model {
	return modelFromPost(posted(modelToPost(model)));
}

async function loaded(path: string): Promise<Ingest> {
	const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024});
	await runSources({inputs: [{kind: 'file', path, label: relative(root, path)}], label: path, demo: false, follow: false, jobsRoot: undefined}, ingest).done;
	return ingest;
}

describe('a model posted to another thread', () => {
	it('arrives as the same model, for every fixture', async () => {
		for (const path of fixtureFiles()) {
			const {model} = await loaded(path);
			expect(modelSnapshot(postedModel(model)), relative(root, path)).toStrictEqual(modelSnapshot(model));
		}
	});

	it('keeps streamed text, cut or not, and goes on accumulating it as the original does', () => {
		const texts = [new TextAccumulator(), new TextAccumulator(40), new TextAccumulator(40), new TextAccumulator()];
		texts[0]!.append('Thinking about ');
		for (let i = 0; i < 10; i++) texts[1]!.append(`delta ${i}; `);
		for (let i = 0; i < 10; i++) texts[2]!.append(`delta ${i}; `);
		texts[2]!.complete('the whole reasoning');
		texts[3]!.started = true;
		for (const text of texts) {
			const copy = TextAccumulator.fromState(posted(text.toState()));
			expect(copy.text).toBe(text.text);
			expect([copy.started, copy.isComplete, copy.isEmpty]).toEqual([text.started, text.isComplete, text.isEmpty]);
			for (const next of ['more, ', 'and more text past the cap of forty characters']) {
				copy.append(next);
				text.append(next);
			}

			expect(copy.text).toBe(text.text);
		}
	});

	it('is a new model: changing the one that arrived leaves the original alone', async () => {
		const {model} = await loaded(`${root}/fixtures/demo.ndjson`);
		const before = modelSnapshot(model);
		const copy = postedModel(model);
		copy.events = 0;
		copy.activities.length = 0;
		for (const run of copy.runs.values()) for (const stream of run.streams.values()) stream.reasoning.append('changed');
		expect(modelSnapshot(model)).toStrictEqual(before);
	});
});
