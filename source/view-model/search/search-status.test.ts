import {describe, expect, it} from 'vitest';
import {continueScan, startScan} from '../../query/search.js';
import {modelFromFixtures, modelFromText, perstackLine} from '../../../test/helpers/load.js';
import {searchStatus} from './search-status.js';

const demo = modelFromFixtures('demo.ndjson');

/** A thousand reads: more than a scan tests between two asks whether to stop. */
const reads = modelFromText(
	Array.from({length: 1000}, (_, i) =>
		perstackLine('callTools', {
			stepNumber: i + 1,
			newMessage: {contents: []},
			toolCalls: [{id: `c${i}`, skillName: '@perstack/base', toolName: 'readTextFile', args: {path: `src/m-${i}.ts`}}],
		}),
	).join('\n'),
);

describe('what the prompt and the footer say of a search', () => {
	it('while it runs: how far it has got and what it has found so far, with no place among matches not all found', () => {
		const scan = startScan(reads, 'm-1');
		continueScan(reads, scan, () => true);
		expect(scan.done).toBe(false);
		const share = Math.floor((scan.next / reads.activities.length) * 100);
		expect(share).toBeGreaterThan(0);
		expect(searchStatus(reads, scan, scan.matches[0], 'long')).toBe(`searching… ${share}% · ${scan.matches.length} matches so far`);
		expect(searchStatus(reads, scan, scan.matches[0], 'short')).toBe(`searching… ${share}% (${scan.matches.length})`);
	});

	it('once done: the current match among all of them, or 0 when none is current', () => {
		const scan = startScan(demo, 'vitest');
		continueScan(demo, scan);
		expect(scan.matches).toHaveLength(7);
		expect(searchStatus(demo, scan, scan.matches[1], 'long')).toBe('2/7 matches');
		expect(searchStatus(demo, scan, undefined, 'short')).toBe('0/7');
		expect(searchStatus(demo, scan, -1, 'short')).toBe('0/7');
	});

	it('regression: once done with no match, says so, not `0/0`', () => {
		const scan = startScan(demo, 'no-such-text-anywhere');
		continueScan(demo, scan);
		expect(scan.matches).toHaveLength(0);
		expect(searchStatus(demo, scan, undefined, 'long')).toBe('no matches');
		expect(searchStatus(demo, scan, undefined, 'short')).toBe('no matches');
	});
});
