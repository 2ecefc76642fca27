import {describe, expect, it} from 'vitest';
import {baseName, shortSourceLabel} from './source-label.js';

describe('shortSourceLabel', () => {
	it('names a file or job directory by its last segment', () => {
		expect(shortSourceLabel('/home/me/logs/2026/run.ndjson', [{kind: 'file', label: '/home/me/logs/2026/run.ndjson'}])).toBe('run.ndjson');
		expect(shortSourceLabel('perstack/jobs/xrg3/', [{kind: 'job', label: 'perstack/jobs/xrg3/'}])).toBe('xrg3');
		expect(shortSourceLabel('stdin', [{kind: 'stdin', label: 'stdin'}])).toBe('stdin');
	});

	it('counts the files after the first', () => {
		const files = ['/a/one.ndjson', '/b/two.ndjson', '/c/three.ndjson'].map(label => ({kind: 'file' as const, label}));
		expect(shortSourceLabel(files.map(file => file.label).join(', '), files)).toBe('one.ndjson +2 files');
		expect(shortSourceLabel('', files.slice(0, 2))).toBe('one.ndjson +1 file');
		expect(shortSourceLabel('', [files[0]!, {kind: 'stdin', label: 'stdin'}])).toBe('one.ndjson +1 source');
	});

	it('shows a command by its first words', () => {
		const command = ['/usr/local/bin/npx', 'perstack', 'run', '--config', './perstack.toml', 'coordinator', 'a long query'];
		expect(shortSourceLabel(command.join(' '), [{kind: 'command', label: command.join(' '), command}])).toBe('npx perstack run …');
		expect(shortSourceLabel('perstack run', [{kind: 'command', label: 'perstack run'}])).toBe('perstack run');
	});

	it('falls back to the whole label when no source is known', () => {
		expect(shortSourceLabel('demo', [])).toBe('demo');
	});
});

describe('baseName', () => {
	it('is the last segment, a trailing slash ignored', () => {
		expect(baseName('a/b/c.txt')).toBe('c.txt');
		expect(baseName('a/b/')).toBe('b');
		expect(baseName('c.txt')).toBe('c.txt');
		expect(baseName('/')).toBe('/');
	});
});
