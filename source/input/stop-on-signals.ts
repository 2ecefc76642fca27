import type {RunningSources} from './source-state.js';

/** How long a command is given after each signal passed on to it before the next, stronger one. */
export const commandGraceMs = 500;
const signalNumbers = {SIGHUP: 1, SIGINT: 2, SIGTERM: 15} as const;
type StopSignal = keyof typeof signalNumbers;

export type SignalStop = {
	/**
	 * Settles with the exit code once a signal has ended perscope (128 + its number): from then on nothing that
	 * is read is waited for. Never settles while no signal has decided.
	 */
	decided: Promise<number>;
	/** The code a signal decided, when one has (see `decided`). */
	code: () => number | undefined;
	/** Removes the handlers and the timers. */
	remove: () => void;
};

/**
 * How the headless modes answer signals while sources are live.
 *
 * Following files (no command): Ctrl-C or SIGTERM stops following, the output is flushed and the exit code
 * is 0 (README, "Exit codes"); a third Ctrl-C gives up at once.
 *
 * With `-- COMMAND`, perscope stops at once, whatever the command does. Ctrl-C goes on to the command's
 * process group, as a shell would pass it on (the command leads a group of its own, so it does not get the
 * terminal's copy); a command that exits within `commandGraceMs` gives its own exit code, as a shell reports
 * it. One that does not gets SIGTERM, then SIGKILL `commandGraceMs` later, and perscope exits 130 without
 * waiting any longer. A second Ctrl-C does that at once. SIGTERM and SIGHUP go on to the group as SIGTERM,
 * SIGKILL follows for a command still there `commandGraceMs` later, and the exit code is 143 or 129 whatever
 * the command did. Once a signal has decided, what still holds the command's output is not read any further.
 */
export function stopOnSignals(running: RunningSources, command: boolean): SignalStop {
	let decidedCode: number | undefined;
	let settle: (code: number) => void = () => undefined;
	const decided = new Promise<number>(resolve => (settle = resolve));
	const timers: Array<ReturnType<typeof setTimeout>> = [];
	const later = (ms: number, work: () => void) => timers.push(setTimeout(work, ms));
	/** The code is decided (a signal's); reading ends now. */
	const finish = () => {
		running.abandon();
		if (decidedCode !== undefined) settle(decidedCode);
	};

	/** Calls `exited` once the command has exited (looked at every few ms: its exit has no hook here). */
	const whenExited = (exited: () => void) => {
		const poll = setInterval(() => {
			if (running.childRunning()) return;
			clearInterval(poll);
			exited();
		}, 10);
		timers.push(poll);
	};

	/** Ends with `code` (the first decided stays): SIGTERM now to what still runs, SIGKILL `commandGraceMs` later. */
	const terminate = (code: number) => {
		decidedCode ??= code;
		// To the group even when the command has exited: what it started and left holding its output goes too.
		running.signalCommand('SIGTERM');
		if (!running.childRunning()) {
			finish();
			return;
		}

		whenExited(finish);
		later(commandGraceMs, () => {
			running.signalCommand('SIGKILL');
			finish();
		});
	};

	let interrupts = 0;
	const onInterrupt = () => {
		interrupts++;
		if (!command) {
			if (interrupts >= 3) process.exit(130);
			running.stop();
			return;
		}

		if (interrupts >= 2) {
			decidedCode ??= 130;
			running.signalCommand('SIGKILL');
			finish();
			return;
		}

		// Its group hears it even when the command itself has exited: what it started may still be writing.
		running.signalCommand('SIGINT');
		if (!running.childRunning()) {
			decidedCode ??= 130;
			finish();
			return;
		}

		// It may exit of its own accord, with a code of its own: that is then perscope's, its output not waited for.
		let exitedByItself = false;
		whenExited(() => {
			exitedByItself = true;
			running.abandon();
		});
		later(commandGraceMs, () => {
			if (!exitedByItself) terminate(130);
		});
	};

	const onTerminate = (signal: StopSignal) => {
		if (!command) {
			running.stop();
			return;
		}

		terminate(128 + signalNumbers[signal]);
	};

	const handlers: Array<[StopSignal, () => void]> = [
		['SIGINT', onInterrupt],
		['SIGTERM', () => onTerminate('SIGTERM')],
	];
	// Following files, a hangup keeps its default (the process ends by it); with a command it ends the command too.
	if (command) handlers.push(['SIGHUP', () => onTerminate('SIGHUP')]);
	for (const [signal, handler] of handlers) process.on(signal, handler);
	return {
		decided,
		code: () => decidedCode,
		remove() {
			for (const [signal, handler] of handlers) process.off(signal, handler);
			for (const timer of timers) clearTimeout(timer);
		},
	};
}
