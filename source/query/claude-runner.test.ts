import {describe, expect, it} from 'vitest';
import {claudeRunnerOf} from './claude-runner.js';
import {claudeSessionMessage} from './continuation.js';

describe('the Claude Code a session’s next prompt runs', () => {
	it('keeps the program and the options that say how it runs; the prompt, the output and the session are the continuation’s own', () => {
		const runner = claudeRunnerOf([
			'/opt/bin/claude',
			'-p',
			'Which notes file is longest?',
			'--output-format',
			'stream-json',
			'--verbose',
			'--allowedTools',
			'Bash,Read',
			'Edit',
			'--model=sonnet',
			'--resume',
			'81898c55-fde9-4d44-b1f5-fbd77cd4fef6',
			'--include-partial-messages',
			'--permission-mode',
			'acceptEdits',
		]);
		const kept = ['--allowedTools', 'Bash,Read', 'Edit', '--model=sonnet', '--include-partial-messages', '--permission-mode', 'acceptEdits'];
		expect(runner).toEqual({program: ['/opt/bin/claude'], options: kept});
		expect(claudeSessionMessage('c17ceeb0-3c4e-4bb0-8e5f-2a750074d209', 'Go on.', runner)?.argv).toEqual([
			'/opt/bin/claude',
			'-p',
			'Go on.',
			'--resume',
			'c17ceeb0-3c4e-4bb0-8e5f-2a750074d209',
			'--output-format',
			'stream-json',
			'--verbose',
			...kept,
		]);
	});

	it('is no runner for a command that does not run claude (one that only names it either), and the CLI on PATH for a log', () => {
		expect(claudeRunnerOf(['perstack', 'run', 'expert', 'claude'])).toBeUndefined();
		expect(claudeRunnerOf(['codex', 'exec', '--json', 'hi'])).toBeUndefined();
		expect(claudeRunnerOf(['npx', '-y', '@anthropic-ai/claude-code@2.1.197', '-p', 'hi', '--model', 'opus'])).toEqual({
			program: ['npx', '-y', '@anthropic-ai/claude-code@2.1.197'],
			options: ['--model', 'opus'],
		});
		expect(claudeSessionMessage('c17ceeb0-3c4e-4bb0-8e5f-2a750074d209', 'Go on.')?.argv.slice(0, 3)).toEqual(['claude', '-p', 'Go on.']);
	});
});
