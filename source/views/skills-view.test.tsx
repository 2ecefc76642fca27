import {readFileSync} from 'node:fs';
import {Text} from 'ink';
import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {keys, waitForFrame} from '../../test/helpers/app.js';
import {fixturePath, modelFromText, perstackLine} from '../../test/helpers/load.js';
import {renderView, type ViewHarness} from '../../test/helpers/views.js';
import {createModel, type Model} from '../model/state.js';
import {formatDateTime} from '../text/format.js';
import {useUiState} from './contexts.js';
import {SkillsOverlay} from './skills-view.js';

function WhileOpen({height, width}: {height: number; width: number}) {
	const {overlay} = useUiState();
	if (overlay.kind !== 'skills') return <Text>closed</Text>;
	return <SkillsOverlay scroll={overlay.scroll} height={height} width={width} />;
}

async function open(model: Model, height = 30, width = 90): Promise<ViewHarness> {
	const view = renderView(<WhileOpen height={height} width={width} />, {model, ui: {overlay: {kind: 'skills', scroll: 0}}});
	await waitForFrame(view, text => text.includes('Skills'));
	return view;
}

const skillsLog = readFileSync(fixturePath('skills.ndjson'), 'utf8');
const base = {jobId: 'gznpasy065p319eyoij7ceax', runId: 'uidrmhnics4qybo7mjiiaavm'};

describe('the skills overlay', () => {
	it('lists each skill with its states over time and what it wrote to stderr', async () => {
		const view = await open(modelFromText(skillsLog));
		const lines = view
			.lastFrame()!
			.split('\n')
			.map(line => line.trimEnd());
		expect(lines[0]).toBe(' Skills (2)');
		const fetch = lines.indexOf('○ fetch  disconnected');
		expect(fetch).toBeGreaterThan(0);
		expect(lines.slice(fetch + 1, fetch + 10)).toEqual([
			'  server: mcp-fetch 1.21.1',
			'  command: uvx mcp-server-fetch',
			'  states',
			`    ${formatDateTime(1_795_387_010_107)}  ◌ starting`,
			`    ${formatDateTime(1_795_387_010_675)}  +568ms  ● connected in 746ms`,
			`    ${formatDateTime(1_795_387_011_657)}  +982ms  ○ disconnected`,
			'  stderr: 3 lines',
			'    Installed 41 packages in 212ms',
			'    [warn] robots.txt checking is enabled; pass --ignore-robots-txt to disable',
		]);
		expect(lines).toContain('○ @perstack/base  disconnected');
		expect(lines).toContain('  stderr: nothing written');
		await view.press(keys.escape);
		await waitForFrame(view, text => text === 'closed');
		view.unmount();
	});

	it('wraps a stack trace under its own indentation, and shows no escape sequence', async () => {
		const trace = [
			'Error: spawn ENOENT \u001B]52;c;cGF3bmVk\u0007',
			'    at ChildProcess._handle.onexit (node:internal/child_process:286:19) with a long tail that must wrap',
		];
		const log = [skillsLog.trimEnd(), ...trace.map(message => perstackLine('skillStderr', {skillName: 'fetch', message}, base))].join('\n');
		const view = await open(modelFromText(log), 40, 60);
		const lines = view.lastFrame()!.split('\n');
		const frame = lines.findIndex(line => line.startsWith('        at ChildProcess'));
		expect(frame).toBeGreaterThan(0);
		// The rest of the frame goes on under it, two further in.
		expect(lines[frame + 1]).toMatch(/^ {10}\S/);
		expect(lines.join('\n')).toContain('␛]52;c;cGF3bmVk␇');
		expect(lines.join('\n')).not.toContain('\u001B]52');
		expect(lines.every(line => stringWidth(line) <= 60 && !line.endsWith('…'))).toBe(true);
		view.unmount();
	});

	it('scrolls with j and G, and says when no skill has reported', async () => {
		const view = await open(modelFromText(skillsLog), 6);
		expect(view.lastFrame()).toMatch(/1–4 of \d+ · esc close/);
		await view.press('j');
		await waitForFrame(view, text => /2–5 of/.test(text));
		view.unmount();
		const empty = await open(createModel());
		expect(empty.lastFrame()).toContain('No skill has reported yet');
		empty.unmount();
	});
});
