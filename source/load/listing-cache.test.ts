import {readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {scratchDirectories} from '../../test/helpers/scratch.js';
import type {JobListing} from '../query/job-listing.js';
import {ListingCache} from './listing-cache.js';

const scratch = scratchDirectories('perscope-listing-cache-');

function listing(path: string, overrides: Partial<JobListing> = {}): JobListing {
	return {
		jobId: 'a9c2eaab-e8dd-4111-990b-0c9d77d216e4',
		path,
		coordinator: 'claude',
		status: 'completed',
		steps: 8,
		usage: {inputTokens: 3200, outputTokens: 80, reasoningTokens: 0, totalTokens: 3280, cachedInputTokens: 800},
		runs: 5,
		startedAt: 1_795_000_000_000,
		lastEventAt: 1_795_000_027_500,
		query: 'Which notes file is longest?',
		...overrides,
	};
}

describe('the listing cache (listings kept between runs)', () => {
	it('gives back, in the next run, a listing kept with the same signature; not with another', () => {
		const file = join(scratch(), 'perscope', 'listings.json');
		const first = new ListingCache(file);
		first.set('/p/a.jsonl', '100:1', listing('/p/a.jsonl'));
		first.set('/p/b.jsonl', '200:2', listing('/p/b.jsonl', {project: '-home-me', companions: ['/p/b-helper.jsonl'], startedAt: undefined}));
		first.save();
		// Only its owner may read it: it holds the first prompt of each session.
		expect(statSync(file).mode & 0o777).toBe(0o600);

		const next = new ListingCache(file);
		expect(next.get('/p/a.jsonl', '100:1')).toEqual(listing('/p/a.jsonl'));
		expect(next.get('/p/b.jsonl', '200:2')).toEqual(listing('/p/b.jsonl', {project: '-home-me', companions: ['/p/b-helper.jsonl'], startedAt: undefined}));
		expect(next.get('/p/a.jsonl', '101:1')).toBeUndefined();
		expect(next.get('/p/c.jsonl', '100:1')).toBeUndefined();
	});

	it('keeps no job not read yet, and keeps nothing without a file', () => {
		const file = join(scratch(), 'listings.json');
		const cache = new ListingCache(file);
		cache.set('/p/a.jsonl', '1', listing('/p/a.jsonl', {pending: true}));
		cache.save();
		expect(new ListingCache(file).get('/p/a.jsonl', '1')).toBeUndefined();
		const none = new ListingCache(undefined);
		none.set('/p/a.jsonl', '1', listing('/p/a.jsonl'));
		none.save();
		expect(none.get('/p/a.jsonl', '1')).toEqual(listing('/p/a.jsonl'));
	});

	it('reads a damaged file as empty, and leaves out an entry not of a listing’s shape (any program could write there)', () => {
		const file = join(scratch(), 'listings.json');
		writeFileSync(file, '{"build": "x", "entries": {');
		expect(new ListingCache(file).get('/p/a.jsonl', '1')).toBeUndefined();

		const cache = new ListingCache(file);
		cache.set('/p/a.jsonl', '1', listing('/p/a.jsonl'));
		cache.set('/p/b.jsonl', '1', listing('/p/b.jsonl'));
		cache.save();
		const written = JSON.parse(readFileSync(file, 'utf8')) as {entries: Array<[string, {listing: Record<string, unknown>}]>};
		written.entries[0]![1].listing['steps'] = '8; rm -rf /';
		written.entries[1]![1].listing['path'] = '/elsewhere';
		writeFileSync(file, JSON.stringify(written));
		const read = new ListingCache(file);
		expect(read.get('/p/a.jsonl', '1')).toBeUndefined();
		expect(read.get('/p/b.jsonl', '1')).toBeUndefined();
	});

	it('keeps the most recently used when there are more than it keeps', () => {
		const file = join(scratch(), 'listings.json');
		const cache = new ListingCache(file, {maxEntries: 2});
		for (const name of ['a', 'b', 'c']) cache.set(`/p/${name}.jsonl`, '1', listing(`/p/${name}.jsonl`));
		cache.get('/p/a.jsonl', '1');
		cache.save();
		const read = new ListingCache(file);
		expect(['a', 'b', 'c'].map(name => read.get(`/p/${name}.jsonl`, '1') !== undefined)).toEqual([true, false, true]);
	});

	it('a place it cannot write to loses nothing but the keeping', () => {
		// A file where its folder would be (as root, a folder without write permission would still be written to).
		const folder = scratch();
		writeFileSync(join(folder, 'perscope'), 'not a folder');
		const cache = new ListingCache(join(folder, 'perscope', 'listings.json'));
		cache.set('/p/a.jsonl', '1', listing('/p/a.jsonl'));
		expect(() => cache.save()).not.toThrow();
		expect(cache.get('/p/a.jsonl', '1')).toEqual(listing('/p/a.jsonl'));
	});
});
