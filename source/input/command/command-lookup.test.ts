import {chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {delimiter, join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {describeSpawnError, whyNotRunnable} from './command-lookup.js';

/*
 * `perscope -- cmd` looks `cmd` up the way a shell would before starting anything, so a typo gives one
 * clear message. The PATH here is made of directories this test creates.
 */

let root = '';
let bin = '';
let other = '';
let searchPath = '';

function script(directory: string, name: string, mode: number): string {
	const path = join(directory, name);
	writeFileSync(path, '#!/bin/sh\necho \'{"type":"startRun"}\'\n');
	chmodSync(path, mode);
	return path;
}

beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), 'perscope-command-lookup-'));
	bin = join(root, 'bin');
	other = join(root, 'other');
	mkdirSync(bin);
	mkdirSync(other);
	script(bin, 'agent', 0o755);
	// Not executable by anyone (so also not by root): a shell says "permission denied".
	script(bin, 'notes', 0o644);
	script(other, 'shadowed', 0o644);
	script(bin, 'shadowed', 0o755);
	mkdirSync(join(bin, 'tools'));
	searchPath = [join(root, 'missing'), other, bin].join(delimiter);
});

afterAll(() => {
	rmSync(root, {recursive: true, force: true});
});

describe.skipIf(process.platform === 'win32')('whyNotRunnable', () => {
	it('finds an executable anywhere on the PATH', () => {
		expect(whyNotRunnable('agent', searchPath)).toBeUndefined();
	});

	it('says "command not found" for a name on no directory of the PATH', () => {
		expect(whyNotRunnable('agnet', searchPath)).toBe('command not found');
		expect(whyNotRunnable('agent', join(root, 'missing'))).toBe('command not found');
	});

	it('says "permission denied" when the only file of that name cannot be run', () => {
		expect(whyNotRunnable('notes', searchPath)).toBe('permission denied');
	});

	it('runs a name whose first match cannot be run when a later one can, as a shell does', () => {
		expect(whyNotRunnable('shadowed', searchPath)).toBeUndefined();
	});

	it('does not take a directory on the PATH for a command', () => {
		expect(whyNotRunnable('tools', searchPath)).toBe('command not found');
	});

	it('checks a name with a slash as a path, without the PATH', () => {
		expect(whyNotRunnable(join(bin, 'agent'), '')).toBeUndefined();
		expect(whyNotRunnable(join(bin, 'notes'), searchPath)).toBe('permission denied');
		expect(whyNotRunnable(join(bin, 'nothing'), searchPath)).toBe('no such file');
		expect(whyNotRunnable(join(bin, 'tools'), searchPath)).toBe('it is a directory');
	});

	it('reads past an empty entry of the PATH (the current directory) to the directories after it', () => {
		expect(whyNotRunnable('agent', `${delimiter}${bin}`)).toBeUndefined();
		expect(whyNotRunnable('agnet', `${delimiter}${bin}`)).toBe('command not found');
	});

	it('refuses an empty name', () => {
		expect(whyNotRunnable('', searchPath)).toBe('empty command name');
	});
});

describe('describeSpawnError', () => {
	function spawnError(code: string): Error {
		return Object.assign(new Error(`spawn x ${code}`), {code});
	}

	it('says what a failed start means in the same words as the lookup', () => {
		expect(describeSpawnError(spawnError('ENOENT'), 'agnet')).toBe('command not found');
		expect(describeSpawnError(spawnError('ENOENT'), './agent')).toBe('no such file');
		expect(describeSpawnError(spawnError('EACCES'), 'notes')).toBe('permission denied');
		expect(describeSpawnError(spawnError('EPERM'), 'notes')).toBe('permission denied');
	});

	it('falls back to the error’s own message', () => {
		expect(describeSpawnError(spawnError('E2BIG'), 'agent')).toBe('spawn x E2BIG');
		expect(describeSpawnError('no reason given', 'agent')).toBe('no reason given');
	});
});
