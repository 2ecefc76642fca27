import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath} from '../../test/helpers/load.js';
import {HistoryPruner, minPrunedLineBytes, prunedTypes} from './prune-line.js';

const historyKeys = new Set(['messages', 'inputMessages', 'newMessages']);

/** The parsed line with every history (of the keys the pruner may cut) emptied. */
function withoutHistories(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(item => withoutHistories(item));
	if (typeof value !== 'object' || value === null) return value;
	return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, historyKeys.has(key) && Array.isArray(item) ? [] : withoutHistories(item)]));
}

function field(value: unknown, key: string): unknown {
	return typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
}

function typeOf(line: string): unknown {
	return field(JSON.parse(line), 'type');
}

function prune(pruner: HistoryPruner, line: string) {
	const bytes = Buffer.from(line);
	return pruner.prune(bytes, 0, bytes.length);
}

describe('HistoryPruner on a real Perstack log', () => {
	const lines = readFileSync(fixturePath('real/delegate.ndjson'), 'utf8')
		.split('\n')
		.filter(line => line !== '');

	it('cuts the histories out of long lines and keeps everything else as it was', () => {
		const pruner = new HistoryPruner();
		const cutTypes = new Set<string>();
		for (const line of lines) {
			const pruned = prune(pruner, line);
			if (!pruned) continue;
			cutTypes.add(pruned.type);
			expect(pruned.type).toBe(typeOf(line));
			expect(pruned.text.length).toBeLessThan(line.length);
			// Short histories may stay; whatever is not a history is exactly as it was.
			expect(withoutHistories(JSON.parse(pruned.text))).toEqual(withoutHistories(JSON.parse(line)));
			// startRun keeps its inputMessages whole: they hold the query.
			if (pruned.type === 'startRun') expect(field(JSON.parse(pruned.text), 'inputMessages')).toEqual(field(JSON.parse(line), 'inputMessages'));
		}

		expect([...cutTypes].sort()).toEqual(['completeRun', 'continueToNextStep', 'startGeneration', 'startRun', 'stopRunByDelegate']);
	});

	it('leaves short lines and lines of other types to be parsed whole', () => {
		const pruner = new HistoryPruner();
		for (const line of lines) {
			if (line.length < minPrunedLineBytes || !prunedTypes.has(String(typeOf(line)))) expect(prune(pruner, line)).toBeUndefined();
		}
	});

	it('never prunes callTools, whose tool arguments are kept', () => {
		expect(prunedTypes.has('callTools')).toBe(false);
		expect(prunedTypes.has('startGeneration')).toBe(true);
	});

	it('gives up on a line whose history is broken, so that it is parsed whole and reported', () => {
		const pruner = new HistoryPruner();
		const generation = lines.find(line => typeOf(line) === 'startGeneration' && line.length > minPrunedLineBytes)!;
		expect(prune(pruner, generation)).toBeDefined();
		const broken = generation.replace('"messages":[{', '"messages":[{,');
		expect(broken).not.toBe(generation);
		expect(prune(pruner, broken)).toBeUndefined();
	});
});
