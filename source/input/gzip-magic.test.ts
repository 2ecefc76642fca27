import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {gzipSync} from 'node:zlib';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {isGzipFile} from './gzip-magic.js';

/* Compressed logs are recognised by their first bytes, not their names. */

let directory = '';

beforeAll(() => {
	directory = mkdtempSync(join(tmpdir(), 'perscope-gzip-magic-'));
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

function file(name: string, bytes: Buffer | string): string {
	const path = join(directory, name);
	writeFileSync(path, bytes);
	return path;
}

describe('isGzipFile', () => {
	it('recognises a compressed log, whatever its name', () => {
		const compressed = gzipSync('{"type":"startRun"}\n');
		expect(isGzipFile(file('events.ndjson.gz', compressed))).toBe(true);
		expect(isGzipFile(file('events.ndjson.1', compressed))).toBe(true);
	});

	it('takes a plain log named .gz for what it is', () => {
		expect(isGzipFile(file('plain.gz', '{"type":"startRun"}\n'))).toBe(false);
	});

	it('says no for a file shorter than the magic number, and for one that starts with only half of it', () => {
		expect(isGzipFile(file('empty', ''))).toBe(false);
		expect(isGzipFile(file('one-byte', Buffer.from([0x1f])))).toBe(false);
		expect(isGzipFile(file('half', Buffer.from([0x1f, 0x00, 0x8b])))).toBe(false);
	});

	it('says no, rather than throwing, for what it cannot read', () => {
		expect(isGzipFile(join(directory, 'missing.gz'))).toBe(false);
		const subdirectory = join(directory, 'a-directory');
		mkdirSync(subdirectory);
		expect(isGzipFile(subdirectory)).toBe(false);
	});
});
