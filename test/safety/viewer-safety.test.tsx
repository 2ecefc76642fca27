import {describe, expect, it} from 'vitest';
import {keys, renderApp, sourceState} from '../helpers/app.js';
import {modelFromFixtures, modelFromText} from '../helpers/load.js';
import {describeUnsafe, unsafeForTerminal} from '../fuzz/invariants.js';
import {attack, hostile, hostileLines} from './hostile-log.js';

/*
 * The interactive viewer draws event text in the tree, live streaming rows, the inspector, and the
 * overlays. Rendered with colours off, a frame has no reason to hold a single ESC: any control sequence
 * in one came from an event.
 */

const lines = hostileLines();

/** No control character but the line break, no escape, no bidi control: nothing a terminal would act on. */
function expectInert(text: string, where: string): void {
	expect(unsafeForTerminal.test(text), `${where}: ${describeUnsafe(text)}`).toBe(false);
}

describe('the interactive viewer over the same log', () => {
	const model = modelFromText(lines.join('\n'), {source: `evil-source-${attack}`});
	const sources = [
		sourceState({
			label: `label ${attack}`,
			kind: 'command',
			command: ['agent', attack],
			stderr: [hostile('stderrLine1'), hostile('stderrLine2')],
			stderrCount: 5,
		}),
	];
	const rawEvent = (ref: {line: number}) => lines[ref.line - 1];

	it('draws without colour in tests, so any ESC in a frame is a leak', async () => {
		const app = renderApp(modelFromFixtures('real/delegate.ndjson'));
		await app.press('e');
		expect(app.frames.join('')).not.toContain('\u001B');
		app.unmount();
	});

	it('no frame of the tree, the inspector or any overlay carries a control sequence from an event', async () => {
		const app = renderApp(model, {sources, rawEvent, label: `label ${attack}`});
		// Each frame is checked once, under the step that drew it: looking at every frame again at each step made the
		// test quadratic in the frames drawn (#35).
		let checked = 0;
		const checkFrames = (where: string) => {
			for (; checked < app.frames.length; checked++) expectInert(app.frames[checked]!, where);
		};

		await app.press('e');
		checkFrames('expanded tree');
		await app.press('g');
		// Walk every row; on each activity, open the inspector and page through all of it.
		let inspected = 0;
		for (let row = 0; row < 200; row++) {
			const selected = (app.lastFrame() ?? '').split('\n').find(line => line.startsWith('›')) ?? '';
			// Pane headers fold and unfold on Enter, and job rows do nothing: only activities open the inspector.
			const isActivity = selected !== '' && !/^›\s*([▾▸]|job )/.test(selected);
			if (isActivity) {
				await app.press(keys.enter);
				// Every folded block unfolded: the whole of each is drawn through the same making-safe.
				await app.press('e');
				for (let page = 0; page < 12; page++) await app.press(keys.pageDown);
				checkFrames(`inspector from row ${row}: ${selected}`);
				await app.press(keys.escape);
				inspected++;
			}

			const before = app.lastFrame();
			await app.press('j');
			if (app.lastFrame() === before) break;
		}

		expect(inspected).toBeGreaterThanOrEqual(15);
		for (const overlay of ['d', 's', 'S', 'u', 't', '?']) {
			await app.press(overlay);
			for (let page = 0; page < 5; page++) await app.press(keys.pageDown);
			checkFrames(`overlay ${overlay}`);
			await app.press(keys.escape);
		}

		// The escapes are shown, not dropped: what an agent printed stays readable.
		expect(app.frames.join('\n')).toContain('␛[31mRED');
		app.unmount();
	});
});
