import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath, modelFromFixtures, modelFromText} from '../../../test/helpers/load.js';
import {endInput, isToolActivity, type Activity, type Model, type ToolActivity} from '../../model/state.js';
import {displayWidth} from '../../text/width/width.js';
import {inspectorLines, type InspectorLine} from './inspector-lines.js';

function activityOf(model: Model, test: (activity: Activity) => boolean): Activity {
	const found = model.activities.find(test);
	if (!found) throw new Error('no such activity');
	return found;
}

/** The lines under a heading, up to the next blank line. */
function section(lines: InspectorLine[], heading: string): string[] {
	const start = lines.findIndex(line => line.tone === 'heading' && line.text.startsWith(heading));
	if (start === -1)
		throw new Error(
			`no section ${heading}; headings: ${lines
				.filter(line => line.tone === 'heading')
				.map(line => line.text)
				.join(', ')}`,
		);
	const end = lines.findIndex((line, index) => index > start && line.text === '');
	return lines.slice(start + 1, end === -1 ? undefined : end).map(line => line.text);
}

describe('the inspector lines', () => {
	it('head with the activity, then its ids and time', () => {
		const model = modelFromFixtures('real/interactive-1.ndjson');
		const lines = inspectorLines(
			model,
			activityOf(model, activity => activity.type === 'interactiveTool'),
			undefined,
			80,
		);
		expect(lines[0]).toEqual({text: '🙋 interactiveTool · interactive-expert · step 1', tone: 'heading'});
		expect(lines.map(line => line.text)).toContain('tool: user-input / askUser');
		expect(lines.map(line => line.text)).toContain('time: 2026-11-21T21:01:13.376Z');
	});

	it('name the run status once when its word is the raw status, and both when they differ', () => {
		const model = modelFromFixtures('real/tools.ndjson');
		const lines = inspectorLines(
			model,
			activityOf(model, activity => activity.type === 'exec'),
			undefined,
			80,
		).map(line => line.text);
		expect(lines).toContain('status: completed');
		const stopped = modelFromFixtures('max-steps.ndjson');
		const stoppedLines = inspectorLines(stopped, stopped.activities.at(-1)!, undefined, 80).map(line => line.text);
		expect(stoppedLines).toContain('status: max steps (stoppedByExceededMaxSteps)');
	});

	it('show a tool call’s arguments pretty-printed, and say when its result has not come yet', () => {
		const model = modelFromFixtures('real/interactive-1.ndjson');
		const lines = inspectorLines(
			model,
			activityOf(model, activity => activity.type === 'interactiveTool'),
			undefined,
			80,
		);
		expect(section(lines, 'Arguments')).toEqual(['{', '  "question": "Which colour should the report use?"', '}']);
		expect(section(lines, 'Result')).toEqual(['(waiting for the result)']);
	});

	it('tell how to answer a question the run is waiting on', () => {
		const model = modelFromFixtures('real/interactive-1.ndjson');
		const lines = inspectorLines(
			model,
			activityOf(model, activity => activity.type === 'interactiveTool'),
			undefined,
			200,
		);
		expect(section(lines, 'Waiting for your answer')).toEqual([
			'tool: askUser',
			'{',
			'  "question": "Which colour should the report use?"',
			'}',
			'Answer it with:',
			"perstack run --runtime local interactive-expert '<answer>' --continue-job xlkgdwda3hj910egy4q4sxjn -i",
			'a answers it from here · y copies the command',
		]);
	});

	it('mark a failed result as an error in its heading and its lines', () => {
		const model = modelFromFixtures('real/tools.ndjson');
		const lines = inspectorLines(
			model,
			activityOf(model, activity => activity.type === 'readTextFile' && JSON.stringify(activity.args).includes('missing')),
			undefined,
			80,
		);
		expect(lines.find(line => line.text.startsWith('Result'))).toEqual({text: 'Result — error: File missing-file.txt does not exist.', tone: 'heading'});
	});

	it('show a delegation’s query, its child runs and their status, and the answer', () => {
		const model = modelFromFixtures('demo.ndjson');
		const lines = inspectorLines(
			model,
			activityOf(model, activity => activity.type === 'delegate'),
			undefined,
			80,
		);
		expect(section(lines, 'Query')).toEqual(['Run the test suite and report exactly which assertions fail and with what', 'values.']);
		expect(section(lines, 'Child runs')).toEqual([expect.stringMatching(/^\w+: test-runner · completed$/)]);
		expect(section(lines, 'Result')[0]).toBe('1 of 6 tests fails: test/duration.test.ts > formats whole hours expects');
		expect(section(lines, 'Run')).toContain('status: waiting for delegates (stoppedByDelegate)');
	});

	it('wrap fields and text to the width (headings and notes are cut by the panel instead)', () => {
		const model = modelFromFixtures('demo.ndjson');
		for (const activity of model.activities) {
			for (const line of inspectorLines(model, activity, undefined, 40)) {
				if ((line.tone === undefined || line.tone === 'label') && !line.unbroken) expect(displayWidth(line.text), line.text).toBeLessThanOrEqual(38);
			}
		}
	});

	it('pretty-print the raw event, or say it is gone', () => {
		const model = modelFromFixtures('real/simple.ndjson');
		const query = activityOf(model, activity => activity.type === 'query');
		expect(section(inspectorLines(model, query, '{"type":"startRun","runId":"r"}', 80), 'Raw event (line')).toEqual([
			'{',
			'  "type": "startRun",',
			'  "runId": "r"',
			'}',
		]);
		expect(section(inspectorLines(model, query, undefined, 80), 'Raw event')).toEqual(['(no longer available: the stream buffer has moved on)']);
		expect(inspectorLines(model, query, undefined, 80).at(-2)?.text).toBe(`Raw event (line ${query.ref.line} of real/simple.ndjson)`);
	});

	it('keep escape sequences in event text off the terminal', () => {
		const model = modelFromFixtures('real/simple.ndjson');
		const query = activityOf(model, activity => activity.type === 'query');
		const lines = inspectorLines(model, query, '{"text":"\\u001b[2Jboom"}', 80);
		for (const line of lines) expect(line.text).not.toContain('\u001B');
	});

	describe('render what a tool did', () => {
		const model = modelFromFixtures('real/tools.ndjson');
		const toolOf = (type: Activity['type']): ToolActivity => {
			const found = activityOf(model, activity => activity.type === type);
			if (!isToolActivity(found)) throw new Error('not a tool call');
			return found;
		};

		const withResult = (activity: ToolActivity, text: string, error?: string): ToolActivity => ({...activity, result: {text, error, ref: activity.ref}});

		it('an exec as its command, exit status and output, not its JSON', () => {
			const lines = inspectorLines(model, toolOf('exec'), undefined, 80);
			expect(section(lines, 'Command')).toEqual(['wc -l notes.md']);
			expect(lines).toContainEqual({text: 'Exit: 0', tone: 'heading'});
			expect(section(lines, 'Output (stdout and stderr) (1 line)')).toEqual(['4 notes.md']);
			expect(lines.map(line => line.text).join('\n')).not.toContain('{"output"');
		});

		it('a failed exec as its error, stdout and stderr blocks', () => {
			const failed = withResult(toolOf('exec'), JSON.stringify({error: 'Command failed: make\nmake: *** no rule', stdout: 'building\n', stderr: 'oops\n'}));
			const lines = inspectorLines(model, failed, undefined, 80);
			expect(lines).toContainEqual({text: 'Error · exit: non-zero (the command failed)', tone: 'heading'});
			expect(section(lines, 'Error')).toEqual(['Command failed: make', 'make: *** no rule']);
			expect(section(lines, 'stdout (1 line)')).toEqual(['building']);
			expect(section(lines, 'stderr (1 line)')).toEqual(['oops']);
		});

		it('folds a long output to its head and tail with the count left out, and keeps it inert', () => {
			const output = Array.from({length: 200}, (_, index) => `line ${index + 1}${index === 0 ? ' \u001b]52;c;cGF3bmVk\u0007' : ''}`).join('\n');
			const lines = inspectorLines(model, withResult(toolOf('exec'), JSON.stringify({output})), undefined, 80);
			const shown = section(lines, 'Output (stdout and stderr) (200 lines)');
			expect(shown).toHaveLength(40 + 1 + 20);
			expect(shown[0]).toBe('line 1 ␛]52;c;cGF3bmVk␇');
			expect(shown[40]).toBe('… 140 lines left out …');
			expect(lines).toContainEqual({text: '… 140 lines left out …', tone: 'dim', fold: 0});
			expect(shown.at(-1)).toBe('line 200');
			for (const line of lines) expect(line.text).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F]/);
		});

		it('shows a folded block whole once it is unfolded, by its number or all of them', () => {
			const output = Array.from({length: 200}, (_, index) => `line ${index + 1}`).join('\n');
			const exec = withResult(toolOf('exec'), JSON.stringify({output}));
			const title = 'Output (stdout and stderr) (200 lines)';
			expect(section(inspectorLines(model, exec, undefined, 80, new Set([0])), title)).toEqual(Array.from({length: 200}, (_, index) => `line ${index + 1}`));
			expect(section(inspectorLines(model, exec, undefined, 80, 'all'), title)).toHaveLength(200);
			// Another block's number leaves this one folded.
			expect(section(inspectorLines(model, exec, undefined, 80, new Set([1])), title)).toHaveLength(61);
		});

		it('an edit as a unified diff of the old and new text', () => {
			const write = toolOf('writeTextFile');
			const edit: ToolActivity = {
				...write,
				type: 'editTextFile',
				toolName: 'editTextFile',
				args: {path: 'notes.md', oldText: '- alpha\n- beta\n', newText: '- alpha\n- BETA\n'},
			};
			const lines = inspectorLines(model, edit, undefined, 80);
			expect(lines.map(line => line.text)).toContain('path: notes.md');
			expect(section(lines, 'Change')).toEqual(['--- old text', '+++ new text', '@@ -1,2 +1,2 @@', ' - alpha', '-- beta', '+- BETA']);
		});

		it('a write and an append as their content with line numbers, and where it went', () => {
			const written = inspectorLines(model, toolOf('writeTextFile'), undefined, 80);
			expect(section(written, 'Content written (4 lines)')).toEqual(['1 │ # Notes', '2 │ - alpha', '3 │ - beta', '4 │ - gamma']);
			expect(section(written, 'Result')).toEqual(['done: /home/user/ws/tools/notes.md']);
			const appended = inspectorLines(model, toolOf('appendTextFile'), undefined, 80);
			expect(section(appended, 'Content appended (1 line)')).toEqual(['1 │ (end of notes)']);
		});

		it('other arguments as pretty JSON, a long string wrapped under its own indentation', () => {
			const list = toolOf('listDirectory');
			const lines = inspectorLines(model, {...list, args: {path: '.', note: 'word '.repeat(30).trim()}}, undefined, 40);
			const args = section(lines, 'Arguments');
			expect(args[0]).toBe('{');
			expect(args[1]).toBe('  "path": ".",');
			expect(args.slice(2, -1).every(line => line.startsWith('  ') && displayWidth(line) <= 38)).toBe(true);
			expect(args.at(-1)).toBe('}');
		});
	});
});

describe('the inspector of a run killed mid-answer (#31 §3)', () => {
	it('shows what the model had streamed, whole, marked as cut off', () => {
		const model = modelFromFixtures('real/killed-mid-answer.ndjson');
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		const lines = inspectorLines(
			model,
			activityOf(model, activity => activity.type === 'attemptCompletion'),
			undefined,
			80,
		).map(line => line.text);
		expect(lines).toContain('Cut off: the input ended while the model was writing (no final event)');
		expect(lines).toContain('answer so far:');
		// All 85 pieces that came before the kill, not a preview: the last sentence streamed is there.
		expect(lines.join('\n')).toMatch(/Sentence 1 of the story goes on\./);
		expect(lines.join('\n')).toMatch(/Sentence 2\d of the story/);
	});

	it('and says nothing of the kind while the input may still go on', () => {
		const model = modelFromFixtures('real/killed-mid-answer.ndjson');
		const lines = inspectorLines(
			model,
			activityOf(model, activity => activity.type === 'attemptCompletion'),
			undefined,
			80,
		).map(line => line.text);
		expect(lines.some(line => line.startsWith('Cut off'))).toBe(false);
	});
});

describe('a question and where its answer went (#31 §2)', () => {
	it('the JSON form of the answer, and why, where the step called another tool first', () => {
		const model = modelFromFixtures('real/ask-1.ndjson', 'real/ask-2-followup.ndjson');
		const lines = inspectorLines(
			model,
			activityOf(model, activity => activity.type === 'interactiveTool'),
			undefined,
			200,
		).map(line => line.text);
		expect(lines.some(line => line.includes(`'{"toolCallId":"toolu_mock1l9ji70003","toolName":"askUser","skillName":"user-input","text":"<answer>"}'`))).toBe(
			true,
		);
		expect(lines.some(line => line.startsWith('The step called readTextFile first'))).toBe(true);
	});
});

describe('#32 §3.6 the inspector: command and error before ids; the answer before the resume, each on one line; a coloured diff numbered by file line', () => {
	it('at 60×15 the command and its error come before the ids and times', () => {
		const model = modelFromFixtures('released/base-tools-all.ndjson');
		const exec = activityOf(model, activity => activity.type === 'exec');
		const texts = inspectorLines(model, exec, undefined, 60).map(line => line.text);
		// The inspector's 8 lines of a 15-row screen (the header, the footer and the inspector's own title and footer aside).
		const firstScreen = texts.slice(0, 8).join('\n');
		expect(firstScreen).toContain('sleep 3');
		expect(firstScreen).toContain('Command timed out after 300ms.');
		expect(texts.indexOf('Ids and time')).toBeGreaterThan(texts.findIndex(text => text.includes('Command timed out')));
		expect(texts).toContain(`activity: ${exec.id}`);
	});

	it('says how to answer before how to resume, each command on one unbroken line as continuation.ts makes it', () => {
		const model = modelFromFixtures('real/interactive-1.ndjson');
		const question = activityOf(model, activity => activity.type === 'interactiveTool');
		const lines = inspectorLines(model, question, undefined, 60);
		const texts = lines.map(line => line.text);
		expect(texts.indexOf('Waiting for your answer')).toBeLessThan(texts.findIndex(text => text.startsWith('Resume from this step')));
		const commands = lines.filter(line => line.unbroken);
		expect(commands.map(line => line.text)).toEqual([
			"perstack run --runtime local interactive-expert '<answer>' --continue-job xlkgdwda3hj910egy4q4sxjn -i",
			expect.stringMatching(/^perstack run --runtime local interactive-expert '.+' --continue-job xlkgdwda3hj910egy4q4sxjn --resume-from \w+$/),
		]);
		// Longer than the width, and not wrapped: no line of the command's end stands alone.
		expect(displayWidth(commands[0]!.text)).toBeGreaterThan(60);
		expect(texts).not.toContain('-i');
	});

	// Regression: an agent CLI's edit showed only its arguments as JSON, where a Perstack edit shows its diff.
	it('shows the change of an agent CLI’s edit as a coloured diff: Claude Code’s Edit, Gemini CLI’s replace, opencode’s edit', () => {
		const cases = [
			{fixture: 'claude-code/claudeProgress-cc2.1.283.TRIMMED.ndjson', tool: 'Edit', path: '/home/runner/repo/src/a.ts', change: ['-a', '+b']},
			{fixture: 'gemini/fix-and-delegate.jsonl', tool: 'replace', path: 'greet.txt', change: ['-Helo, world', '+Hello, world']},
			{fixture: 'opencode/edit-and-test.jsonl', tool: 'edit', path: 'greet.txt', change: ['-Helo', '+Hello']},
		];
		for (const {fixture, tool, path, change} of cases) {
			const model = modelFromFixtures(fixture);
			const edit = activityOf(model, activity => 'toolName' in activity && activity.toolName === tool);
			const lines = inspectorLines(model, edit, undefined, 80);
			expect(
				lines.some(line => line.text === `path: ${path}`),
				fixture,
			).toBe(true);
			expect(section(lines, 'Change'), fixture).toEqual(['--- old text', '+++ new text', '@@ -1,1 +1,1 @@', ...change]);
			expect(lines.find(line => line.text === change[0])?.tone, fixture).toBe('removed');
			expect(lines.find(line => line.text === change[1])?.tone, fixture).toBe('added');
			// The arguments are still there whole.
			expect(section(lines, 'Arguments').join('\n'), fixture).toContain(change[1]!.slice(1));
		}
	});

	it('colours a diff’s removed lines red and added ones green, and numbers its hunk from the file line it starts at', () => {
		// The real runtime: write "first line", append "second line", then an edit; here the edit is of the second line.
		const log = readFileSync(fixturePath('released/base-tools-all.ndjson'), 'utf8').replaceAll(
			'"oldText":"first line","newText":"FIRST LINE"',
			'"oldText":"second line","newText":"SECOND LINE"',
		);
		const model = modelFromText(log);
		const edit = activityOf(model, activity => activity.type === 'editTextFile');
		const lines = inspectorLines(model, edit, undefined, 80);
		expect(section(lines, 'Change')).toEqual(['--- old text', '+++ new text', '@@ -2,1 +2,1 @@', '-second line', '+SECOND LINE']);
		expect(lines.find(line => line.text === '-second line')?.tone).toBe('removed');
		expect(lines.find(line => line.text === '+SECOND LINE')?.tone).toBe('added');
		expect(lines.find(line => line.text === '--- old text')?.tone).toBeUndefined();
	});
});
