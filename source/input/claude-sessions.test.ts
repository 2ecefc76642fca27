import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {scratchDirectories} from '../../test/helpers/scratch.js';
import {sessionDirectory} from './claude-sessions.js';

const scratch = scratchDirectories('perscope-claude-directory-');

describe('the directory a Claude Code session ran in', () => {
	it('is the cwd its own lines name (a stream’s init, a transcript’s lines), where it is a directory here', () => {
		const folder = scratch();
		const project = join(folder, 'my project');
		mkdirSync(project);
		const stream = join(folder, 'stream.ndjson');
		const id = '81898c55-fde9-4d44-b1f5-fbd77cd4fef6';
		writeFileSync(
			stream,
			[
				JSON.stringify({type: 'system', subtype: 'init', session_id: 'another-session', cwd: folder}),
				'not json {"cwd"',
				JSON.stringify({type: 'system', subtype: 'init', session_id: id, cwd: project}),
			].join('\n'),
		);
		expect(sessionDirectory([join(folder, 'missing.ndjson'), stream], id)).toBe(project);
		// Named, but not here (a log from another machine): none, and the viewer runs claude where perscope runs.
		const elsewhere = join(folder, 'elsewhere.jsonl');
		writeFileSync(elsewhere, `${JSON.stringify({type: 'user', sessionId: id, cwd: join(folder, 'gone')})}\n`);
		expect(sessionDirectory([elsewhere], id)).toBeUndefined();
		expect(sessionDirectory([stream], 'c17ceeb0-3c4e-4bb0-8e5f-2a750074d209')).toBeUndefined();
	});
});
