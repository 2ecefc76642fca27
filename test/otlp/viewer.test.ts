import {afterEach, describe, expect, it} from 'vitest';
import {waitUntil} from '../helpers/cli-process.js';
import {hasTmux, TmuxSession} from '../e2e/tmux.js';
import {startReceiver, type Receiver} from './receiver.js';

/* `--otlp` in the interactive viewer, in a real terminal: spans go out while the viewer is open, not at exit. */

let session: TmuxSession | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
	session?.kill();
	await receiver?.close();
});

describe.skipIf(!hasTmux())('--otlp with the viewer', () => {
	it('sends the ended spans while the viewer shows the run, and reports on exit', async () => {
		receiver = await startReceiver();
		const {url, spans} = receiver;
		session = TmuxSession.start(`node dist/cli/main.js --otlp ${url} fixtures/real/delegate.ndjson`);
		await session.waitFor('▸ child-expert');
		await waitUntil(() => spans().length === 13, 'the 13 spans of the log', () => session?.screen() ?? '');
		// Still open: the spans did not wait for the viewer to close.
		expect(session.screen()).toContain('▸ child-expert');
		session.keys('q');
		expect(await session.exitCode()).toBe(0);
		expect(session.screen()).toContain(`perscope: OTLP: 13 spans exported to ${url}/v1/traces, 0 dropped`);
	});
});
