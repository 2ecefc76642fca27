import {describe, expect, it} from 'vitest';
import {modelFromFixtures, modelFromText, perstackLine, runByExpert} from '../../test/helpers/load.js';
import {activityConversation, findConversation, paneConversation} from './conversation-target.js';

const model = modelFromFixtures('real/delegate.ndjson');
const coordinator = runByExpert(model, 'coordinator');
const resumed = runByExpert(model, 'coordinator', 1);
const child = runByExpert(model, 'child-expert');

describe('findConversation', () => {
	it('takes a whole run id or a unique prefix, and the run’s last step by default', () => {
		expect(findConversation(model, child.runId, undefined)).toMatchObject({ok: true, target: {run: child, line: {step: 4}}});
		expect(findConversation(model, 'mycc', 3)).toMatchObject({ok: true, target: {run: child, line: {step: 3, line: 21}}});
	});

	it('names the candidates of a prefix that fits several runs or none', () => {
		const several = `"p" starts 2 run ids: ${coordinator.runId} (coordinator), ${resumed.runId} (coordinator); give more of the id`;
		expect(findConversation(model, 'p', undefined)).toEqual({ok: false, message: several, brief: several});
		expect(findConversation(model, 'zz', undefined)).toMatchObject({
			ok: false,
			message: expect.stringMatching(
				/^no run id starts with "zz"; runs: p8bixwhz\w+ \(coordinator\), mycc7mg8\w+ \(child-expert\), phfj4550\w+ \(coordinator\)$/,
			) as unknown,
		});
	});

	it('lists the steps of a run that does not have the one asked for', () => {
		expect(findConversation(model, 'phfj', 2)).toEqual({
			ok: false,
			message: `run ${resumed.runId} (coordinator) has no step 2 with messages; its steps: 5, 6`,
			brief: 'no conversation at step 2: this run has messages at steps 5, 6',
		});
	});

	it('lists at most ten candidates', () => {
		const many = modelFromText(
			Array.from({length: 12}, (_, index) => perstackLine('startGeneration', {messages: []}, {runId: `run-${index}`})).join('\n') + '\n',
		);
		const found = findConversation(many, 'run-', undefined);
		expect(found).toMatchObject({
			ok: false,
			message: expect.stringMatching(/^"run-" starts 12 run ids: run-0 \(expert\), .*run-9 \(expert\), … 2 more; give more of the id$/) as unknown,
		});
	});
});

describe('the conversation of a row', () => {
	it('an activity’s is its own step’s, in its own run', () => {
		const delegate = model.activities.find(activity => activity.type === 'delegate');
		expect(activityConversation(model, delegate!)).toMatchObject({ok: true, target: {run: coordinator, line: {step: 1}}});
	});

	it('a pane’s is the last step of its latest run: a resumed coordinator is one pane', () => {
		expect(paneConversation(model, coordinator.paneId)).toMatchObject({ok: true, target: {run: resumed, line: {step: 6}}});
		expect(paneConversation(model, child.paneId)).toMatchObject({ok: true, target: {run: child, line: {step: 4}}});
	});

	it('says so for a run whose events carry no messages', () => {
		const drover = modelFromFixtures('drover-subagent.ndjson');
		const run = [...drover.runs.values()][0]!;
		const why = 'a drover stream does not carry what the model was given at a step';
		expect(paneConversation(drover, run.paneId)).toEqual({
			ok: false,
			message: `no step of this run has messages in the log: ${why}`,
			brief: `no conversation: ${why}`,
		});
		expect(findConversation(drover, run.runId, undefined)).toEqual({
			ok: false,
			message: `run ${run.runId} (${run.expertKey}) has no step with messages in the log: ${why}; --print shows what each run did and answered`,
			brief: `no conversation: ${why}`,
		});
	});

	it('says so in plain English for an opencode stream, which carries no messages either', () => {
		const opencode = modelFromFixtures('opencode/sub-agent.jsonl');
		expect(findConversation(opencode, 'ses_de24e6884ffeuwOcgUObIzFw7Y', undefined)).toEqual({
			ok: false,
			message:
				'run ses_de24e6884ffeuwOcgUObIzFw7Y (opencode) has no step with messages in the log: an opencode stream does not carry what the model was given at a step; --print shows what each run did and answered',
			brief: 'no conversation: an opencode stream does not carry what the model was given at a step',
		});
	});
});
