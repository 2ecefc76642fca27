import type {InputPlan} from '../input/inputs.js';
import type {RunOptions} from './run-options.js';

export type InteractiveStartOptions = RunOptions & {
	/**
	 * Sets up the environment Ink and React must be imported under and returns what restores it
	 * (source/cli/ink-environment.ts): the CLI owns the environment, this only says when.
	 */
	prepareInkEnvironment: () => () => void;
};

/**
 * The viewer's composition root: puts a first screen up, then loads and runs the viewer (interactive.ts), which
 * starts the load. Resolves with the exit code.
 */
export async function startInteractive(plan: InputPlan, options: InteractiveStartOptions): Promise<number> {
	const restoreEnvironment = options.prepareInkEnvironment();
	// Loading Ink and React takes longer than reading the first megabytes of a log: put the first screen up
	// before importing them, so the person sees where they are at once, whatever the machine's load.
	const {enterFullScreen} = await import('../views/terminal.js');
	const {sanitizeLine} = await import('../text/sanitize.js');
	const restoreScreen = enterFullScreen(process.stdout);
	process.stdout.write(`perscope · ${sanitizeLine(plan.label)} · starting…`);
	const {runApp} = await import('./interactive.js');
	const {prepareInkEnvironment: _, ...run} = options;
	return runApp(plan, {...run, restoreScreen, onViewsLoaded: restoreEnvironment});
}
