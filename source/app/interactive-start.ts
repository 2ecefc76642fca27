import type {InputPlan} from '../input/inputs.js';
import type {Dialect} from '../model/events.js';
import type {LoadTuning} from '../load/tuning.js';
import type {Filter} from '../query/filter.js';
import type {PriceTable} from '../query/prices.js';
import type {OtlpOptions} from '../export/otlp/options.js';

export type InteractiveStartOptions = {
	maxLineBytes: number;
	filter: Filter | undefined;
	replaySpeed: number | undefined;
	/** Loader settings for tests and measurements (source/cli/environment.ts). */
	tuning: LoadTuning;
	/** Whether the fast ways of reading are used (false: PERSCOPE_FAST=0, every line through its schema). */
	fast: boolean;
	/** `--dialect`: every line is read as this dialect's; undefined tells each stream's from its lines. */
	dialect?: Dialect | undefined;
	/** What tokens cost (`--prices FILE`); the built-in table when not given. */
	prices: PriceTable | undefined;
	/**
	 * Sets up the environment Ink and React must be imported under and returns what restores it
	 * (source/cli/ink-environment.ts): the CLI owns the environment, this only says when.
	 */
	prepareInkEnvironment: () => () => void;
	otlp?: OtlpOptions | undefined;
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
	const {maxLineBytes, filter, replaySpeed, fast, dialect, tuning, prices, otlp} = options;
	return runApp(plan, {maxLineBytes, filter, replaySpeed, fast, dialect, tuning, prices, restoreScreen, onViewsLoaded: restoreEnvironment, otlp});
}
