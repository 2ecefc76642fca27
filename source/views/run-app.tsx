import {render} from 'ink';
import React from 'react';
import {Ingest} from '../ingest.js';
import type {InputPlan} from '../sources/inputs.js';
import {RawEvents} from '../sources/raw-events.js';
import {runSources} from '../sources/run-sources.js';
import {App} from './app.js';
import type {ViewEnv} from './contexts.js';
import {enterFullScreen, openKeyboard, reassertRawMode} from './terminal.js';
import {ViewStore} from './view-store.js';

const signalNumbers: Record<string, number> = {SIGHUP: 1, SIGINT: 2, SIGTERM: 15};

/** Mounts the interactive viewer full-screen and resolves with the exit code once it is closed. */
export async function runApp(plan: InputPlan, options: {maxLineBytes: number}): Promise<number> {
	const stdinCarriesEvents = plan.inputs.some(input => input.kind === 'stdin');
	const keyboard = openKeyboard(stdinCarriesEvents);
	if (!keyboard) {
		process.stderr.write('perscope: the interactive viewer needs a terminal to read keys from, and none is available; use --print for a transcript\n');
		return 2;
	}

	const raw = new RawEvents();
	for (const input of plan.inputs) if (input.kind === 'file') raw.addSeekable(input.label, input.path);
	const ingest = new Ingest({maxLineBytes: options.maxLineBytes, onLine: line => raw.remember(line)});
	const store = new ViewStore(ingest.model);
	const restoreScreen = enterFullScreen(process.stdout);

	let exitCode = 0;
	let quitting = false;
	let instance: ReturnType<typeof render> | undefined;
	const quit = () => {
		if (quitting) return;
		quitting = true;
		instance?.unmount();
	};

	// Yield to the event loop between chunks so keys and frames are served while a big file loads.
	const sources = runSources(plan, ingest, {afterChunk: () => new Promise(resolve => setImmediate(resolve))});

	const env: ViewEnv = {
		store,
		model: ingest.model,
		sourceLabel: plan.label,
		sources: sources.states,
		rawEvent: ref => raw.read(ref),
		interrupt: () => false,
		childRunning: () => false,
		quit,
	};

	const onSignal = (signal: NodeJS.Signals) => {
		exitCode = 128 + (signalNumbers[signal] ?? 0);
		quit();
	};

	process.on('SIGTERM', onSignal);
	process.on('SIGHUP', onSignal);
	process.on('SIGINT', onSignal);

	try {
		instance = render(<App env={env} />, {
			stdin: keyboard.stream,
			stdout: process.stdout,
			exitOnCtrlC: false,
			patchConsole: true,
			maxFps: 30,
			incrementalRendering: false,
		});
		store.start();
		if (stdinCarriesEvents) {
			// The writer of the pipe may have reset the terminal as it exited: take raw mode back, now and
			// again a little later, since it can exit some time after closing its end of the pipe.
			process.stdin.once('end', () => {
				for (const delay of [50, 500, 2000]) setTimeout(() => reassertRawMode(keyboard.stream), delay).unref();
			});
		}

		void sources.done.then(code => {
			exitCode = code;
			store.markChanged();
		});
		await instance.waitUntilExit();
	} finally {
		store.stop();
		process.off('SIGTERM', onSignal);
		process.off('SIGHUP', onSignal);
		process.off('SIGINT', onSignal);
		keyboard.close();
		restoreScreen();
	}

	return exitCode;
}
