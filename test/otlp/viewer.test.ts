import {describe, expect, it, type TestContext} from 'vitest';
import {waitUntil} from '../helpers/cli-process.js';
import {hasTmux, TmuxSession} from '../e2e/tmux.js';
import {startReceiver, type Answer, type Receiver} from './receiver.js';

/* `--otlp` in the interactive viewer, in a real terminal: spans go out while the viewer is open, not at exit. */

/** A receiver of the test's own, closed when it ends. */
async function receive({onTestFinished}: TestContext, answer?: (index: number) => Answer): Promise<Receiver> {
	const receiver = await startReceiver(answer);
	// The test's own hook: a test running beside others is not the one vitest's global hook would attach it to.
	onTestFinished(() => receiver.close());
	return receiver;
}

/** A viewer in a terminal of its own (each session has its own tmux server), killed when the test ends. */
function viewer({onTestFinished}: TestContext, command: string, options?: Parameters<typeof TmuxSession.start>[1]): TmuxSession {
	const session = TmuxSession.start(command, options);
	onTestFinished(() => session.kill());
	return session;
}

describe.skipIf(!hasTmux())('--otlp with the viewer, quitting', () => {
	// Alone: it times the quit, which three viewers starting beside it on two cores could slow.
	it('q with a backend that refuses connections waited 5 s: it quits at once and says why', async context => {
		const closed = await startReceiver();
		const {url} = closed;
		await closed.close();
		const session = viewer(context, `node dist/bin/perscope.js --otlp ${url} fixtures/real/delegate.ndjson`, {width: 250});
		await session.waitFor('▸ child-expert');
		const pressed = Date.now();
		session.keys('q');
		expect(await session.exitCode()).toBe(0);
		expect(Date.now() - pressed).toBeLessThan(2500);
		expect(session.screen()).toContain(`12 dropped (connection refused by 127.0.0.1:${new URL(url).port}: nothing takes OTLP there)`);
	}, 30_000);
});

/* These wait on the viewer or on the flush bound, side by side; each asserts through the `expect` it is given. */
describe.skipIf(!hasTmux()).concurrent('--otlp with the viewer', () => {
	it('sends the ended spans while the viewer shows the run, and reports on exit', async context => {
		const {expect} = context;
		const {url, spans} = await receive(context);
		const session = viewer(context, `node dist/bin/perscope.js --otlp ${url} fixtures/real/delegate.ndjson`);
		await session.waitFor('▸ child-expert');
		await waitUntil(
			() => spans().length === 12,
			'the 12 spans of the log',
			() => session.screen(),
		);
		// Still open: the spans did not wait for the viewer to close.
		expect(session.screen()).toContain('▸ child-expert');
		session.keys('q');
		expect(await session.exitCode()).toBe(0);
		expect(session.screen()).toContain(`perscope: OTLP: 12 spans exported to ${url}/v1/traces, 0 dropped`);
	});

	it('q with a backend that does not answer froze the screen for 5 s without a word: it says it is sending, then how it went', async context => {
		const {expect} = context;
		const {url} = await receive(context, () => 'hang');
		const session = viewer(context, `node dist/bin/perscope.js --otlp ${url} fixtures/real/delegate.ndjson`, {width: 250});
		await session.waitFor('▸ child-expert');
		session.keys('q');
		await session.waitFor(`perscope: sending 12 spans to ${url}/v1/traces…`, 4000);
		expect(await session.exitCode(10_000)).toBe(0);
		expect(session.screen()).toContain(`perscope: OTLP: 0 spans exported to ${url}/v1/traces, 12 dropped (the backend took no more spans within 5 s)`);
	}, 30_000);

	it('--otlp-file on a disk that fills (/dev/full) exited 0 from the viewer: it exits 1 and says why', async context => {
		const {expect} = context;
		const session = viewer(context, 'node dist/bin/perscope.js --otlp-file /dev/full fixtures/real/delegate.ndjson', {width: 250});
		await session.waitFor('▸ child-expert');
		session.keys('q');
		expect(await session.exitCode()).toBe(1);
		expect(session.screen()).toContain('perscope: OTLP: 0 spans written to /dev/full, then writing failed (ENOSPC: no space left on device, write');
	}, 30_000);
});
