import {describe, expect, it} from 'vitest';
import {modelFromFixtures} from '../../test/helpers/load.js';
import type {Activity, ToolActivity, ToolActivityType} from '../model/state.js';
import {activityIcons, argsDetail, describeActivity, iconLegend, iconOf, safeJson} from './describe-activity.js';

/** The one-line forms of a fixture's activities, as `icon verb detail`. */
function linesOf(fixture: string): string[] {
	return modelFromFixtures(fixture).activities.map(activity => {
		const line = describeActivity(activity);
		return `${line.icon} ${line.verb}${line.detail === '' ? '' : ` ${line.detail}`}`;
	});
}

function activityOf(fixture: string, find: (activity: Activity) => boolean): Activity {
	const found = modelFromFixtures(fixture).activities.find(find);
	if (!found) throw new Error(`no such activity in ${fixture}`);
	return found;
}

const ref = {source: 'test', line: 1, offset: 0};

function toolCall(
	type: ToolActivityType,
	args: unknown,
	result?: {text: string; error?: string},
	names: {skillName?: string; toolName?: string} = {},
): ToolActivity {
	return {
		id: 'a-1',
		expertKey: 'expert',
		runId: 'run-1',
		previousActivityId: null,
		delegatedBy: undefined,
		reasoning: undefined,
		step: 1,
		timestamp: 1_700_000_000_000,
		ref,
		seq: 0,
		settled: result !== undefined,
		type,
		toolCallId: 'call-1',
		skillName: names.skillName ?? '@perstack/base',
		toolName: names.toolName ?? type,
		args,
		message: undefined,
		result: result === undefined ? undefined : {text: result.text, error: result.error, ref},
	};
}

describe('describeActivity on a real Perstack run', () => {
	it('names each base tool by a short verb and what it acted on', () => {
		expect(linesOf('real/tools.ndjson')).toEqual([
			'💬 query Create a notes file, check it and report back.',
			'☑ todo +4: Write notes.md; Read notes.md back; Inspect the workspace; Count lines with wc',
			'✏️ write notes.md',
			'📄 read notes.md',
			'📁 list .',
			'📄 read missing-file.txt',
			'⚡ exec wc -l notes.md',
			'✏️ append notes.md',
			'☑ todo done 0, 1, 2',
			'🏁 attempt completion refused: 1 todo remains',
			'☑ todo done 3',
			'🏁 attempt completion',
			expect.stringMatching(/^✅ complete I created `notes.md` with three bullet points/),
		]);
	});

	// Regression: Gemini CLI's run that ends after a tool call without a word showed `✅ complete` and nothing more.
	it('says a run ended with an empty answer, as a delegate’s empty answer does', () => {
		expect(linesOf('gemini/samples/hyperyolo-stream-json.jsonl').at(-1)).toBe('✅ complete (empty answer)');
		expect(linesOf('gemini/fix-and-delegate.jsonl')).toContain('✅ complete (empty answer)');
		// The delegation that asked, on its row: `🤝 delegate generalist: … ✓` ended at its mark.
		const delegate = activityOf('gemini/fix-and-delegate.jsonl', activity => activity.type === 'delegate');
		expect(describeActivity(delegate).outcome).toEqual({glyph: '✓', failed: false, text: '(empty answer)'});
	});

	it('carries a failed tool result as the error', () => {
		const failed = describeActivity(
			activityOf('real/tools.ndjson', activity => activity.type === 'readTextFile' && JSON.stringify(activity.args).includes('missing')),
		);
		expect(failed.error).toBe('File missing-file.txt does not exist.');
		expect(failed.pending).toBe(false);
	});

	it('writes a run error as its name and message', () => {
		const error = describeActivity(activityOf('stop-error.ndjson', activity => activity.type === 'error'));
		expect(error.detail).toBe('AI_APICallError: prompt is too long: 211403 tokens > 200000 maximum');
		expect(error.error).toBe('prompt is too long: 211403 tokens > 200000 maximum');
	});

	it('shows a question to the person as pending until it is answered', () => {
		const ask = describeActivity(activityOf('real/interactive-1.ndjson', activity => activity.type === 'interactiveTool'));
		expect(ask).toMatchObject({icon: '🙋', verb: 'ask askUser', detail: 'Which colour should the report use?', pending: true});
	});

	it('names a delegation by the expert it goes to and the query, and a return by who came back', () => {
		const lines = linesOf('demo.ndjson');
		expect(lines).toContain('🤝 delegate test-runner: Run the test suite and report exactly which assertions fail and with what values.');
		expect(lines).toContain('📬 delegation complete test-runner, code-reader');
	});

	it('gives a delegate its child’s outcome only once the child has returned', () => {
		const returned = describeActivity(activityOf('real/delegate.ndjson', activity => activity.type === 'delegate'));
		expect(returned.outcome).toEqual({glyph: '✓', failed: false, text: "The workspace contains one file: README.txt (one line: 'hello from the workspace')."});
		expect(describeActivity(activityOf('delegate-failure.ndjson', activity => activity.type === 'delegate')).outcome).toBeUndefined();
		const delegate = activityOf('real/delegate.ndjson', activity => activity.type === 'delegate');
		if (delegate.type !== 'delegate') throw new Error('not a delegate');
		const failed = describeActivity({...delegate, result: {text: '', error: 'Overloaded\nstack…', ref}});
		expect(failed.outcome).toEqual({glyph: '✗', failed: true, text: 'Overloaded'});
	});

	it('names an MCP tool by its skill without the @perstack/ scope', () => {
		expect(linesOf('demo.ndjson')).toContain('🔧 github/search_issues formatDuration repo:acme/tiny-utils');
	});
});

describe('describeActivity on hand-made tool calls', () => {
	it('quotes exec arguments the way a shell would need them', () => {
		const line = describeActivity(toolCall('exec', {command: 'git', args: ['commit', '-m', "it's done"]}, {text: ''}));
		expect(line.detail).toBe(`git commit -m 'it'\\''s done'`);
	});

	it('shows a move as source → destination', () => {
		expect(describeActivity(toolCall('moveFile', {source: 'a.txt', destination: 'b/a.txt'}, {text: ''})).detail).toBe('a.txt → b/a.txt');
	});

	it('marks a tool call without a result as pending, but not attemptCompletion', () => {
		expect(describeActivity(toolCall('readTextFile', {path: 'x'})).pending).toBe(true);
		expect(describeActivity(toolCall('attemptCompletion', {})).pending).toBe(false);
	});

	it('keeps terminal escapes out of the line', () => {
		const line = describeActivity(toolCall('readTextFile', {path: 'evil\u001B[2Jname\nnext'}, {text: '', error: 'bad\u001B]0;title\u0007'}));
		expect(line.detail).not.toMatch(/[\u001B\u0007\n]/);
		expect(line.error).not.toMatch(/[\u001B\u0007]/);
		expect(line.detail).toContain('name');
	});

	it('cuts a very long detail to a transcript line with an ellipsis', () => {
		const line = describeActivity(toolCall('exec', {command: 'echo', args: ['x'.repeat(5000)]}, {text: ''}));
		expect(line.detail.length).toBeLessThanOrEqual(400);
		expect(line.detail.endsWith('…')).toBe(true);
	});

	it('never leaves half an emoji where it cuts', () => {
		const line = describeActivity(toolCall('readTextFile', {path: `${'a'.repeat(398)}😀😀😀`}, {text: ''}));
		expect(line.detail.endsWith('…')).toBe(true);
		expect(line.detail).not.toMatch(/[\uD800-\uDBFF]…$/);
	});
});

describe('argsDetail', () => {
	it('shows a single string argument bare, anything else as JSON', () => {
		expect(argsDetail({question: 'Which colour?'})).toBe('Which colour?');
		expect(argsDetail({q: 'login', perPage: 5})).toBe('{"q":"login","perPage":5}');
		expect(argsDetail(undefined)).toBe('');
		// The command or the file a tool acts on, whatever else it is given (Claude Code's Bash, Read, Edit).
		expect(argsDetail({command: 'npm test', description: 'Run tests', timeout: 5000})).toBe('npm test');
		expect(argsDetail({file_path: 'src/a.ts', old_string: 'a', new_string: 'b'})).toBe('src/a.ts');
		// opencode's edit and Gemini CLI's read_file name the file otherwise.
		expect(argsDetail({filePath: 'greet.txt', oldString: 'Helo', newString: 'Hello'})).toBe('greet.txt');
		expect(argsDetail({absolute_path: '/ws/sample.txt', offset: 10})).toBe('/ws/sample.txt');
		// What a search looks for, the page a fetch reads: Claude Code's Grep and WebFetch, a Perstack MCP fetch.
		expect(argsDetail({pattern: 'TODO', path: 'src', output_mode: 'content'})).toBe('TODO');
		expect(argsDetail({url: 'https://example.com/a', prompt: 'Summarise it'})).toBe('https://example.com/a');
	});

	it('tells how far a todo list is and what is under way, not the list as JSON', () => {
		// Claude Code's TodoWrite (its documented input), Gemini CLI's write_todos, an empty list.
		const claude = {
			todos: [
				{content: 'Read the failing test', status: 'completed', activeForm: 'Reading the failing test'},
				{content: 'Fix formatDuration', status: 'in_progress', activeForm: 'Fixing formatDuration'},
				{content: 'Run the tests', status: 'pending', activeForm: 'Running the tests'},
			],
		};
		expect(argsDetail(claude)).toBe('3 todos, 1 done · now: Fix formatDuration');
		expect(argsDetail({todos: [{description: 'Fix the greeting', status: 'in_progress'}]})).toBe('1 todo, 0 done · now: Fix the greeting');
		expect(argsDetail({todos: []})).toBe('0 todos, 0 done');
	});
});

describe('safeJson', () => {
	it('does not throw on a cyclic value', () => {
		const cyclic: Record<string, unknown> = {};
		cyclic['self'] = cyclic;
		expect(safeJson(cyclic)).toBe('[value too deep or cyclic to show]');
	});
});

describe('iconOf', () => {
	it('gives the delegate and error icons the legend uses', () => {
		expect(iconOf('delegate')).toBe('🤝');
		expect(iconOf('error')).toBe('❌');
	});
});

describe('the icon legend', () => {
	it('explains every icon a row can show', () => {
		const explained = new Set(iconLegend.map(([icon]) => icon));
		for (const icon of activityIcons()) expect(explained).toContain(icon);
	});
});

describe('a question’s row says where its answer went (#31 §2)', () => {
	const question = (names: string[]) => {
		const model = modelFromFixtures(...names.map(name => `real/${name}.ndjson`));
		const found = model.activities.find(activity => activity.type === 'interactiveTool');
		if (!found) throw new Error('no question');
		return describeActivity(found);
	};

	it('the person’s answer, after the question', () => {
		expect(question(['ask-1', 'ask-2-followup', 'ask-3-answer-json']).outcome).toEqual({glyph: '↩', failed: false, text: 'Blue, please.'});
	});

	it('an answer the runtime gave to another call, and that the question was asked again', () => {
		const line = question(['ask-1', 'ask-2-followup', 'ask-3-answer']);
		expect(line.outcome).toEqual({glyph: '⚠', failed: true, text: 'answer attached to readTextFile, the question was asked again: Blue, please.'});
		expect(line.pending).toBe(false);
	});

	it('nothing while the question waits', () => {
		expect(question(['ask-1', 'ask-2-followup']).outcome).toBeUndefined();
	});
});
