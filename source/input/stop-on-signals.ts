import type {RunningSources} from './source-state.js';

/**
 * How a viewer without a screen of its own (the headless modes) answers SIGINT and SIGTERM while sources
 * are live. The first Ctrl-C goes to a running child, as a shell would pass it on (the child leads its
 * own process group, so it does not get the terminal's copy); without a child it stops following, so
 * the output is flushed and the viewer exits 0. A second Ctrl-C stops everything, a third gives up at
 * once. SIGTERM stops everything. Returns a function that removes the handlers.
 */
export function stopOnSignals(running: RunningSources): () => void {
	let interrupts = 0;
	const onInterrupt = () => {
		interrupts++;
		if (interrupts >= 3) process.exit(130);
		if (interrupts === 1 && running.interrupt()) return;
		running.stop();
	};

	const onTerminate = () => running.stop();
	process.on('SIGINT', onInterrupt);
	process.on('SIGTERM', onTerminate);
	return () => {
		process.off('SIGINT', onInterrupt);
		process.off('SIGTERM', onTerminate);
	};
}
