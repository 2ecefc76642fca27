import {readFileSync} from 'node:fs';
import {render} from 'ink-testing-library';
import {describe, expect, it} from 'vitest';
import {settle, waitForFrame} from '../../test/helpers/app.js';
import {fixturePath, modelFromFixtures, modelFromText, perstackLine, runByExpert} from '../../test/helpers/load.js';
import {describeUnsafe, unsafeForTerminal} from '../../test/fuzz/invariants.js';
import {hostileConversationLines} from '../../test/helpers/hostile-conversation.js';
import {keys} from '../../test/helpers/app.js';
import type {EventRef} from '../model/events.js';
import {createModel, type Model} from '../model/state.js';
import {App} from './app.js';
import type {ViewEnv} from './contexts.js';
import {initialUiState} from '../view-model/ui-state.js';
import {ViewStore} from '../view-model/view-store.js';
import {ViewerWork} from '../view-model/viewer-work.js';
import type {ConversationStep} from '../model/conversation.js';
import {manualScheduler} from '../../test/helpers/manual-scheduler.js';

const fixture = 'real/tools.ndjson';
const bytes = readFileSync(fixturePath(fixture));

/** The line at a ref's offset, as the viewer's raw-event reader gives it. */
function lineAt(ref: EventRef): string {
	const end = bytes.indexOf(10, ref.offset);
	return bytes.toString('utf8', ref.offset, end === -1 ? bytes.length : end);
}

function open(
	options: {
		selectedKey?: string;
		rawEvent?: (ref: EventRef) => string | undefined;
		model?: Model;
		messageLine?: ViewEnv['messageLine'];
		work?: ViewerWork;
	} = {},
) {
	const model = options.model ?? modelFromFixtures(fixture);
	const store = new ViewStore(model);
	const env: ViewEnv = {
		store,
		work: options.work ?? new ViewerWork(),
		sourceLabel: fixture,
		sources: [],
		rawEvent: options.rawEvent ?? lineAt,
		interrupt: () => false,
		childRunning: () => false,
		quit: () => undefined,
		exportEvent: () => '/tmp/exported.json',
		...(options.messageLine ? {messageLine: options.messageLine} : {}),
	};
	store.tick();
	const ui = options.selectedKey ? {...initialUiState, selectedKey: options.selectedKey, follow: false} : initialUiState;
	const view = render(<App env={env} initialUi={ui} />);
	const press = async (input: string) => {
		view.stdin.write(input);
		await settle();
	};

	return {view, press, store};
}

describe('the conversation overlay (c)', () => {
	it('opens on an activity at its step: the messages given, then the new ones marked +, with the step’s tokens; esc closes', async () => {
		const model = modelFromFixtures(fixture);
		const run = runByExpert(model, 'tools-expert');
		const exec = model.activities.find(activity => activity.runId === run.runId && activity.type === 'exec');
		expect(exec?.step).toBe(4);
		const opened = open({selectedKey: `a:${exec!.id}`});
		await waitForFrame(opened.view, frame => frame.includes('wc'));
		await opened.press('c');
		const frame = await waitForFrame(opened.view, frame => frame.includes('Conversation · tools-expert · step 4'));
		expect(frame).toContain('conversation of run yx0qylj95kkijg52otg17vwe (tools-expert) at step 4');
		expect(frame).toContain('tokens this step:');
		// The end: the step's new messages, marked.
		await opened.press('G');
		const end = await waitForFrame(opened.view, frame => frame.includes('+ #10 tool'));
		expect(end).toMatch(/^\+ {3}result of exec · toolu_/m);
		// The result's JSON text as its lines (#32 §3.7).
		expect(end).toMatch(/^\+ +"output": \|\n\+ +4 notes\.md$/m);
		await opened.press('\u001B[5~');
		expect(await waitForFrame(opened.view, frame => frame.includes('+ ── new at this step: the answer and its tools’ results ──'))).toMatch(
			/^\+ #9 assistant/m,
		);
		// e unfolds long contents (here the system prompt) and folds them again.
		await opened.press('g');
		await opened.press('e');
		const unfolded = await waitForFrame(opened.view, frame => frame.includes('Conversation · tools-expert · step 4 · unfolded'));
		expect(unfolded).not.toContain('(the rest of the system prompt)');
		await opened.press('e');
		expect(await waitForFrame(opened.view, frame => frame.includes('(the rest of the system prompt)'))).not.toContain('· unfolded');
		await opened.press('\u001B');
		await waitForFrame(opened.view, frame => !frame.includes('Conversation ·') && frame.includes('wc'));
		opened.view.unmount();
	});

	it('opens on a run’s pane row at the run’s last step', async () => {
		const run = runByExpert(modelFromFixtures(fixture), 'tools-expert');
		const opened = open({selectedKey: `p:${run.paneId}`});
		await settle();
		await opened.press('c');
		const frame = await waitForFrame(opened.view, frame => frame.includes('Conversation · tools-expert · step 8'));
		expect(frame).toContain('from line 135 (completeRun)');
		opened.view.unmount();
	});

	// Regression: on an agent CLI's run, `c` said `run 8cb87219-64e1-…#2 (gemini) has no step with …` and the footer's
	// edge cut the reason off, even at 140 columns. (Gemini CLI's steps are read from its chats now: opencode's stream
	// is one that carries no conversation.)
	it('c on an agent CLI’s run says first that its stream carries no conversation, on an activity and on its pane row', async () => {
		const model = modelFromFixtures('opencode/edit-and-test.jsonl');
		const write = model.activities.find(activity => 'toolName' in activity && activity.toolName === 'edit');
		const run = model.runs.get(write!.runId)!;
		for (const selectedKey of [`a:${write!.id}`, `p:${run.paneId}`]) {
			const opened = open({model, selectedKey});
			await settle();
			await opened.press('c');
			const frame = await waitForFrame(opened.view, frame => frame.includes('no conversation'));
			const footer = frame.split('\n').find(line => line.includes('no conversation'))!;
			expect(footer).toContain('no conversation: an opencode stream does not carry what the model was given at a step');
			expect(footer).not.toContain(run.runId);
			expect(frame).not.toContain('Conversation ·');
			opened.view.unmount();
		}
	});

	it('a session read off the viewer’s thread: says it is being read, shows it once it arrives, and esc closes meanwhile', async () => {
		const run = runByExpert(modelFromFixtures(fixture), 'tools-expert');
		const arrivals: Array<() => void> = [];
		const messageLine: ViewEnv['messageLine'] = where =>
			new Promise(resolve => arrivals.push(() => resolve(lineAt({source: where.source, line: where.line, offset: where.offset}))));
		const opened = open({selectedKey: `p:${run.paneId}`, messageLine});
		await settle();
		await opened.press('c');
		expect(await waitForFrame(opened.view, frame => frame.includes('Conversation · tools-expert · step 8'))).toContain(
			'Reading the session for step 8 (line 135)…',
		);
		// Closed before it arrived: nothing shows when it does.
		await opened.press('\u001B');
		await waitForFrame(opened.view, frame => !frame.includes('Conversation ·'));
		arrivals.shift()!();
		await settle();
		expect(opened.view.lastFrame()).not.toContain('Conversation ·');
		await opened.press('c');
		await waitForFrame(opened.view, frame => frame.includes('Reading the session for step 8'));
		arrivals.shift()!();
		const arrived = await waitForFrame(opened.view, frame => frame.includes('from line 135 (completeRun)'));
		expect(arrived).not.toContain('Reading the session');
		opened.view.unmount();
	});

	it('lays out a long conversation in slices, keys answered between them: the panel says so until it is whole', async () => {
		const run = runByExpert(modelFromFixtures(fixture), 'tools-expert');
		const given = Array.from({length: 3000}, (_, index) => ({role: index % 2 === 0 ? 'user' : 'assistant', contents: `message ${index}`, isNewInput: false}));
		const step: ConversationStep = {kind: 'ended', from: 'transcript', usage: undefined, given, added: [], error: undefined};
		const scheduler = manualScheduler();
		const opened = open({selectedKey: `p:${run.paneId}`, messageLine: () => step, work: new ViewerWork(scheduler)});
		await settle();
		await opened.press('c');
		const first = await waitForFrame(opened.view, frame => frame.includes('Conversation · tools-expert · step 8'));
		expect(first).toContain('· laying out…');
		// The first lines are there to read and scroll while the rest is made.
		expect(first).toContain('message 0');
		await opened.press('j');
		// G before it is whole: the end of what there is, then the end once it is whole.
		await opened.press('G');
		expect(opened.view.lastFrame()).not.toContain('message 2999');
		expect(scheduler.runAll()).toBeGreaterThan(1);
		await settle();
		const whole = await waitForFrame(opened.view, frame => frame.includes('message 2999'));
		expect(whole).not.toContain('laying out');
		expect(whole).toMatch(/of 6\d{3} ·/);
		opened.view.unmount();
	});

	it('says so when the step’s line is no longer available', async () => {
		const {view, press} = open({rawEvent: () => undefined});
		await settle();
		await press('c');
		const frame = await waitForFrame(view, frame => frame.includes('Conversation ·'));
		expect(frame).toContain('are no longer available');
		view.unmount();
	});

	it('draws nothing a terminal would act on, whatever the messages hold', async () => {
		const lines = hostileConversationLines();
		const {view, press} = open({model: modelFromText(lines.join('\n')), rawEvent: ref => lines[ref.line - 1]});
		await settle();
		await press('c');
		await waitForFrame(view, frame => frame.includes('Conversation ·'));
		for (let page = 0; page < 6; page++) await press(keys.pageDown);
		const frames = view.frames.join('\n');
		expect(unsafeForTerminal.test(frames), describeUnsafe(frames)).toBe(false);
		expect(frames).toContain('<thinking>␛[31mRED');
		view.unmount();
	});

	it('follows a running step: its startGeneration first, then its end once it comes', async () => {
		const user = {type: 'userMessage', id: 'm1', contents: [{type: 'textPart', id: 'p1', text: 'Say hello.'}]};
		const answer = {type: 'expertMessage', id: 'm2', contents: [{type: 'textPart', id: 'p2', text: 'Hello!'}]};
		const lines = new Map<string, string>();
		const model = createModel();
		const feed = (source: string, line: string) => {
			lines.set(`${source}:1`, line);
			modelFromText(line + '\n', {source, model});
		};

		feed('first', perstackLine('startGeneration', {messages: [user]}));
		const {view, press, store} = open({model, rawEvent: ref => lines.get(`${ref.source}:${ref.line}`)});
		await settle();
		await press('c');
		expect(await waitForFrame(view, frame => frame.includes('Conversation · expert · step 1'))).toContain('the step has not ended in the log: no answer yet');
		feed(
			'second',
			perstackLine('completeRun', {
				text: 'Hello!',
				checkpoint: {status: 'completed', stepNumber: 1, messages: [user, answer]},
				step: {stepNumber: 1, newMessages: [answer], inputMessages: [user]},
			}),
		);
		store.flush();
		const ended = await waitForFrame(view, frame => frame.includes('+   Hello!'));
		expect(ended).toContain('from line 1 (completeRun)');
		view.unmount();
	});
});
