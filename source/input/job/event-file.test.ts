import {describe, expect, it} from 'vitest';
import {LineSplitter} from '../../parse/line-splitter.js';
import {EventFileFeed} from './event-file.js';

/*
 * The event file feed finds where the file's first JSON value ends by crossing strings with indexOf. Whatever
 * the strings hold (escaped quotes, runs of backslashes, braces) and wherever the file is cut into chunks, it
 * must pass on exactly that value and count what follows it.
 */

function feed(bytes: Buffer, cuts: number[]): {lines: string[]; leftover: number} {
	const lines: string[] = [];
	const feeder = new EventFileFeed(new LineSplitter('test', {line: line => lines.push(line.text), overlong: () => undefined}));
	let start = 0;
	for (const cut of [...cuts, bytes.length]) {
		feeder.push(Buffer.from(bytes.subarray(start, cut)));
		start = cut;
	}

	feeder.end();
	return {lines, leftover: feeder.leftover};
}

/** A seeded generator, so that a failure can be replayed. */
function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
		return state / 2_147_483_648;
	};
}

const pieces = ['\\', '\\\\', '"', '{', '}', '[', ']', 'a', ' ', 'é', '\n', '\\u0022'];

describe('EventFileFeed', () => {
	it('passes on exactly the first value and counts the rest, however the strings and the chunks fall', () => {
		const next = random(7);
		for (let round = 0; round < 2000; round++) {
			const text = Array.from({length: 1 + Math.floor(next() * 12)}, () => pieces[Math.floor(next() * pieces.length)]).join('');
			const value = {type: 'callTools', text, nested: [{text: text.slice(1)}, text.length]};
			const tail = next() < 0.5 ? '' : `"tail":"${text.length}"}}`;
			const json = JSON.stringify(value);
			const bytes = Buffer.from(`${json}${tail}`);
			const cuts = Array.from({length: Math.floor(next() * 4)}, () => Math.floor(next() * bytes.length)).sort((a, b) => a - b);
			expect(feed(bytes, cuts), `${json}${tail} cut at ${cuts.join(',')}`).toEqual({lines: [json], leftover: Buffer.byteLength(tail)});
		}
	});

	it('a backslash at the end of a chunk escapes the first byte of the next', () => {
		const bytes = Buffer.from('{"a":"x\\"}"}{"b":1}');
		for (let cut = 1; cut < bytes.length; cut++) expect(feed(bytes, [cut])).toEqual({lines: ['{"a":"x\\"}"}'], leftover: 7});
	});
});
