import {describe, expect, it} from 'vitest';
import {keys, renderApp, waitForFrame} from '../../test/helpers/app.js';
import {modelFromFixtures} from '../../test/helpers/load.js';

/** Three jobs: simple (simple-expert), demo (bugfix-lead), delegate-failure (release-coordinator). */
function threeJobs() {
	return renderApp(modelFromFixtures('real/simple.ndjson', 'demo.ndjson', 'delegate-failure.ndjson'));
}

const selected = (frame: string) => frame.split('\n').find(line => line.startsWith('›')) ?? '';

describe('job rows in the tree', () => {
	it('fold with ← and unfold with →, toggle with enter and space, and the header follows the selection', async () => {
		const app = threeJobs();
		await waitForFrame(app, frame => frame.includes('▾ job 3/3 · release-coordinator'));
		await app.press('g');
		let frame = await waitForFrame(app, text => selected(text).startsWith('›▸ job 1/3 · simple-expert ✓ completed'));
		expect(frame).toContain('job 1/3 ivc73wpbhfw5');
		await app.press(keys.right);
		frame = await waitForFrame(app, text => text.includes('▾ job 1/3') && text.includes('▾ simple-expert'));
		// The job's panes are drawn one step in, under its row.
		expect(frame.split('\n').find(line => line.includes('▾ simple-expert'))).toMatch(/^ {3}▾ simple-expert/);
		await app.press(keys.left);
		await waitForFrame(app, text => selected(text).startsWith('›▸ job 1/3') && !text.includes('▾ simple-expert'));
		await app.press(keys.enter);
		await waitForFrame(app, text => text.includes('▾ job 1/3') && text.includes('▾ simple-expert'));
		await app.press(' ');
		await waitForFrame(app, text => text.includes('▸ job 1/3') && !text.includes('▾ simple-expert'));
		// Down to the next job: the header is about it now.
		await app.press('j');
		frame = await waitForFrame(app, text => selected(text).startsWith('›▸ job 2/3 · bugfix-lead'));
		expect(frame).toContain('job 2/3 nibyyurl65b4');
		app.unmount();
	});

	it('← on a folded top pane folds its job and selects the job row', async () => {
		const app = threeJobs();
		await waitForFrame(app, frame => frame.includes('▾ job 3/3'));
		await app.press('g');
		await waitForFrame(app, text => selected(text).startsWith('›▸ job 1/3'));
		await app.press(keys.right);
		await waitForFrame(app, text => text.includes('▾ simple-expert'));
		await app.press('j');
		await waitForFrame(app, text => selected(text).includes('▾ simple-expert'));
		await app.press(keys.left);
		await waitForFrame(app, text => selected(text).includes('▸ simple-expert'));
		await app.press(keys.left);
		await waitForFrame(app, text => selected(text).startsWith('›▸ job 1/3') && !/^ +▸ simple-expert/m.test(text));
		app.unmount();
	});

	it('E folds every job to its row, with the selection on the job it was in; e opens them all', async () => {
		const app = threeJobs();
		await waitForFrame(app, frame => frame.includes('▾ job 3/3'));
		await app.press('E');
		const folded = await waitForFrame(app, text => text.includes('▸ job 3/3'));
		const rows = folded.split('\n').filter(line => /^[› ]▸ job \d\/3/.test(line));
		expect(rows).toHaveLength(3);
		expect(selected(folded)).toMatch(/^›▸ job 3\/3 · release-coordinator/);
		await app.press('e');
		// Every pane of every job is open: the selection stays on the job row it was on.
		await waitForFrame(app, text => selected(text).startsWith('›▾ job 3/3') && text.includes('▾ code-reader'));
		app.unmount();
	});

	it('a search match inside a folded job unfolds the job and selects the match', async () => {
		const app = threeJobs();
		await waitForFrame(app, frame => frame.includes('▸ job 1/3'));
		await app.press('/capital of France');
		await app.press(keys.enter);
		const frame = await waitForFrame(app, text => text.includes('▾ job 1/3') && selected(text).includes('capital of France'));
		expect(frame).toContain('job 1/3 ivc73wpbhfw5');
		app.unmount();
	});
});
