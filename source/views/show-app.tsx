import {render, type Instance} from 'ink';
import type {Filter} from '../query/filter.js';
import type {JobListing} from '../load/job-listing.js';
import {App} from './app.js';
import type {ViewEnv} from './contexts.js';
import {JobChooser} from './job-chooser.js';
import {putBack, type TypedAhead} from './keypress.js';
import {initialUiState, type UiState} from '../view-model/ui-state.js';

type PromptHistory = UiState['history'];

/*
 * The Ink half of the viewer, imported once the wiring (run-app.ts) has started reading: Ink and the views
 * take ~0.2 s to load, which a worker spends parsing the file.
 */

/** How often a followed job list is looked at again (`-f`): a job started shows within a second. */
const followedListMs = 1000;
/** What the list reads before its first frame: a small root is whole in it. */
const firstSliceMs = 150;

/** Lists the saved jobs under `root` and resolves with the one chosen, or undefined if the person quit. */
export async function chooseJob(
	root: string,
	stdin: NodeJS.ReadStream,
	options: {
		initialJobPath?: string | undefined;
		suspend?: ((repaint: () => void) => void) | undefined;
		follow?: boolean | undefined;
		where?: string | undefined;
		/** Keys typed as the last job was left, and where those typed as this list is left go. */
		typedAhead?: TypedAhead | undefined;
		/** Where listings are kept between runs (load/listing-cache.ts). */
		cacheFile?: string | undefined;
	} = {},
): Promise<JobListing | undefined> {
	// Listing reads the jobs with the loading code, which the viewer of a large file has no use for.
	const {JobList} = await import('../load/job-list.js');
	const {ListingCache} = await import('../load/listing-cache.js');
	const list = new JobList(root, {follow: options.follow === true, where: options.where, cache: new ListingCache(options.cacheFile)});
	// What a first slice reads shows at once; the rest, a slice at a time, while keys are answered.
	const jobs = list.next(firstSliceMs) ?? [];
	const source = {
		next: (budgetMs: number) => list.next(budgetMs),
		get pending() {
			return list.pending;
		},
		everyMs: options.follow ? followedListMs : undefined,
	};
	let chosen: JobListing | undefined;
	// Ink draws from the cursor: start from a clear screen, not after what was shown while Ink loaded.
	process.stdout.write('\u001B[H\u001B[2J');
	putBack(stdin, options.typedAhead);
	const chooser = render(
		<JobChooser
			root={root}
			jobs={jobs}
			initialJobPath={options.initialJobPath}
			onSuspend={options.suspend}
			source={source}
			onChoose={job => (chosen = job)}
			typedAhead={options.typedAhead}
		/>,
		{stdin, stdout: process.stdout, exitOnCtrlC: false, patchConsole: false},
	);
	try {
		await chooser.waitUntilExit();
	} finally {
		// A session left half read lets go of its files; what was read is kept for the next run.
		list.close();
		list.save();
	}

	chooser.clear();
	return chosen;
}

/** Draws the viewer's first frame and keeps it drawn until it is unmounted. */
export function showApp(
	env: ViewEnv,
	options: {
		stdin: NodeJS.ReadStream;
		filter: Filter | undefined;
		onDrawCost: (ms: number) => void;
		history?: PromptHistory | undefined;
		onHistory?: ((history: PromptHistory) => void) | undefined;
		/** Keys typed as the job list was left, and where those typed as this job is left go. */
		typedAhead?: TypedAhead | undefined;
	},
): Instance {
	// Ink draws from the cursor: from a clear screen, as the chooser does.
	process.stdout.write('\u001B[H\u001B[2J');
	const initialUi = options.history ? {...initialUiState, history: options.history} : initialUiState;
	putBack(options.stdin, options.typedAhead);
	return render(
		<App env={env} initialUi={initialUi} onHistory={options.onHistory} typedAhead={options.typedAhead} {...(options.filter ? {filter: options.filter} : {})} />,
		{
			stdin: options.stdin,
			stdout: process.stdout,
			exitOnCtrlC: false,
			patchConsole: true,
			// Events are already paced by the view store (10 frames a second); Ink's own throttle would only
			// hold back the frame that answers a key, by up to its interval after the last frame.
			maxFps: 120,
			incrementalRendering: false,
			onRender: ({renderTime}) => options.onDrawCost(renderTime),
		},
	);
}
