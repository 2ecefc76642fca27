import type {InputPlan} from '../input/inputs.js';
// Imported with the CLI rather than when the viewer starts: it is small, the headless modes load it too
// (through parallel-file.ts), and the viewer's load worker then starts sooner.
import {startEarlyLoad} from '../load/early-load.js';
import type {Filter} from '../query/filter.js';

export type InteractiveStartOptions = {
	maxLineBytes: number;
	filter: Filter | undefined;
	replaySpeed: number | undefined;
	/** Whether the fast ways of reading are used (false: PERSCOPE_FAST=0, every line through its schema). */
	fast: boolean;
	/**
	 * Sets up the environment Ink and React must be imported under and returns what restores it
	 * (source/cli/ink-environment.ts): the CLI owns the environment, this only says when.
	 */
	prepareInkEnvironment: () => () => void;
};

/**
 * The viewer's composition root: starts the load worker for a large file, puts a first screen up, then
 * loads and runs the viewer (interactive.ts). Resolves with the exit code.
 */
export async function startInteractive(plan: InputPlan, options: InteractiveStartOptions): Promise<number> {
	// A worker loads a large file while Ink loads (load/load-in-worker.ts): start it before anything else,
	// with the person's own environment.
	if (options.replaySpeed === undefined && options.fast) startEarlyLoad(plan, options.maxLineBytes);
	const restoreEnvironment = options.prepareInkEnvironment();
	// Loading Ink and React takes longer than reading the first megabytes of a log: put the first screen up
	// before importing them, so the person sees where they are at once, whatever the machine's load.
	const {enterFullScreen} = await import('../tui/terminal.js');
	const {sanitizeLine} = await import('../present/sanitize.js');
	const restoreScreen = enterFullScreen(process.stdout);
	process.stdout.write(`perscope · ${sanitizeLine(plan.label)} · starting…`);
	const {runApp} = await import('./interactive.js');
	const {maxLineBytes, filter, replaySpeed, fast} = options;
	return runApp(plan, {maxLineBytes, filter, replaySpeed, fast, restoreScreen, onViewsLoaded: restoreEnvironment});
}
