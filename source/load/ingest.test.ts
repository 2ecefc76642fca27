import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {Ingest} from './ingest.js';
import type {Model} from '../model/state.js';
import {fixturesDir} from '../../test/helpers/load.js';
import {fixtureFiles} from '../../test/helpers/fixture-files.js';
import {modelSnapshot} from '../../test/helpers/model-snapshot.js';
import {hostileLog, hostileMaxLineBytes} from '../../test/perf/hostile-log.js';
import {expectSame} from '../../test/helpers/expect-same.js';

/*
 * Every line Ingest takes (stdin, a command, followed, compressed and job files) goes through LineParser's
 * fast lanes: streaming deltas are read from their bytes, histories cut before JSON.parse, events read
 * without zod. Whatever the log, the model must be the one the plain parse (PERSCOPE_FAST=0) builds, line
 * numbers and offsets included.
 */

let directory = '';

beforeAll(() => {
	directory = mkdtempSync(join(tmpdir(), 'perscope-stream-lines-'));
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

/** Feeds the bytes in pieces of `piece` bytes, as a pipe would hand them over. */
function read(bytes: Buffer, fast: boolean, maxLineBytes = 64 * 1024 * 1024, piece = 4093): Model {
	const ingest = new Ingest({maxLineBytes, fast});
	const splitter = ingest.splitter('stdin');
	for (let at = 0; at < bytes.length; at += piece) splitter.push(bytes.subarray(at, at + piece));
	splitter.end();
	return ingest.model;
}

function expectSameModel(bytes: Buffer, maxLineBytes?: number): void {
	expectSame(modelSnapshot(read(bytes, true, maxLineBytes)), modelSnapshot(read(bytes, false, maxLineBytes)));
}

describe('lines read the fast ways on a live stream', () => {
	it.each(fixtureFiles().map(path => relative(fixturesDir, path)))('%s gives the model the plain parse gives', fixture => {
		expectSameModel(readFileSync(join(fixturesDir, fixture)));
	});

	it('a generated log of many parallel streams gives the model the plain parse gives', () => {
		const path = join(directory, 'generated.ndjson');
		const made = spawnSync(
			process.execPath,
			[
				'build/tools/generate-log.js',
				'--seed',
				'5',
				'--jobs',
				'2',
				'--steps',
				'9',
				'--children',
				'2',
				'--deltas',
				'12',
				'--message-bytes',
				'300',
				'--out',
				path,
			],
			{
				cwd: join(fixturesDir, '..'),
				encoding: 'utf8',
			},
		);
		expect(made.status, made.stderr).toBe(0);
		expectSameModel(readFileSync(path));
	});

	it('a log made to trip it up gives the model the plain parse gives', () => {
		expectSameModel(hostileLog(), hostileMaxLineBytes);
	});
});
