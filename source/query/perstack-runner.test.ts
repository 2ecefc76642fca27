import {describe, expect, it} from 'vitest';
import {perstackRunArgv, perstackRunnerOf} from './perstack-runner.js';

describe('perstackRunnerOf: what of the starting command a continuation runs again', () => {
	it('keeps the program and the options that say how to run (the released CLI runs in Docker without --runtime local)', () => {
		expect(perstackRunnerOf(['perstack', 'run', '--runtime', 'local', '--config=./p.toml', 'helper', 'Write a note', '--model', 'claude-sonnet-4-5'])).toEqual({
			program: ['perstack'],
			options: ['--runtime', 'local', '--config=./p.toml', '--model', 'claude-sonnet-4-5'],
		});
	});

	it('keeps the words before `run` (npx, a version, a path) and drops the options that belong to the first run', () => {
		expect(
			perstackRunnerOf([
				'npx',
				'perstack@0.0.54',
				'run',
				'helper',
				'q',
				'--job-id',
				'j1',
				'--run-id',
				'r1',
				'--continue',
				'-i',
				'--resume-from',
				'c1',
				'--verbose',
			]),
		).toEqual({
			program: ['npx', 'perstack@0.0.54'],
			options: ['--verbose'],
		});
		expect(perstackRunnerOf(['./node_modules/.bin/perstack', 'run', '--continue-job', 'j1', 'helper', 'q'])?.program).toEqual(['./node_modules/.bin/perstack']);
	});

	it('is undefined for a command that is not `perstack run`', () => {
		expect(perstackRunnerOf(['node', 'replay.mjs', 'run'])).toBeUndefined();
		expect(perstackRunnerOf(['perstack', 'log', '--job', 'j1'])).toBeUndefined();
	});

	it('reads no option after `--`: the expert and the query may begin with a dash', () => {
		expect(perstackRunnerOf(['perstack', 'run', '--runtime', 'local', '--', '-expert', '--model'])?.options).toEqual(['--runtime', 'local']);
	});
});

describe('perstackRunArgv', () => {
	it('puts the expert and the text after `--` when either begins with a dash, where the CLI would read an option', () => {
		const runner = {program: ['perstack'], options: ['--runtime', 'local']};
		expect(perstackRunArgv(runner, ['--continue-job', 'j1', '-i'], 'helper', 'Blue')).toEqual([
			'perstack',
			'run',
			'--runtime',
			'local',
			'helper',
			'Blue',
			'--continue-job',
			'j1',
			'-i',
		]);
		expect(perstackRunArgv(runner, ['--continue-job', 'j1', '-i'], 'helper', '-5 degrees')).toEqual([
			'perstack',
			'run',
			'--runtime',
			'local',
			'--continue-job',
			'j1',
			'-i',
			'--',
			'helper',
			'-5 degrees',
		]);
	});
});
