import {spawnSync} from 'node:child_process';
import {describe, expect, it} from 'vitest';
import {cliPath} from '../helpers/cli-process.js';
import {fixturePath} from '../helpers/load.js';

describe('--print --filter with several jobs', () => {
	it('--print --filter lines did not say which job they belonged to: a job line goes before each job’s lines, and where they switch', () => {
		const result = spawnSync(
			process.execPath,
			[cliPath, '--print', '--filter', 'errors', fixturePath('released/parallel-3-one-fails.ndjson'), fixturePath('delegate-failure.ndjson')],
			{encoding: 'utf8'},
		);
		expect(result.stdout.trimEnd().split('\n')).toEqual([
			'── job o15jipg4uspv78nbh9s0cvmj · lead · started 2026-11-27 07:20:16 UTC',
			'  [beta] ❌ error AI_NoOutputGeneratedError: No output generated. Check the stream for errors.',
			'── job sm8w3d6nos5nv2eqmkf28xm4 · release-coordinator · started 2026-11-22 20:41:52 UTC',
			'  [changelog-writer] ❌ error AI_APICallError: Overloaded',
			'── job o15jipg4uspv78nbh9s0cvmj · lead · continues 2026-11-27 07:20:16 UTC',
			'[lead] ✗ the job ended while this run waited for its delegates: beta failed: AI_NoOutputGeneratedError: No output generated. Check the stream for errors.',
			'── job sm8w3d6nos5nv2eqmkf28xm4 · release-coordinator · continues 2026-11-22 20:41:52 UTC',
			'[release-coordinator] ✗ the job ended while this run waited for its delegates: changelog-writer failed: AI_APICallError: Overloaded',
		]);
	});
});
