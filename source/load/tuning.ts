/**
 * Settings of the loaders that only tests and measurements change: the product leaves them all unset and
 * the loaders decide from the file's size and the machine. A test passes them in (cli/run-cli.ts's
 * `CliContext.tuning`, or test/helpers/tuned-perscope.mjs for a real process); nothing reads them from the
 * environment. Plain data, since a load worker is given them in its setup.
 */
export type LoadTuning = {
	/** The size of every chunk a plain file is cut into, in bytes (else from the file's size). */
	chunkBytes?: number | undefined;
	/** How many chunk workers parse a plain file beside the main thread (else from the file's size and the CPUs). */
	chunkWorkers?: number | undefined;
	/** false: the main thread leaves every chunk to the chunk workers while one is alive. */
	mainThreadParses?: boolean | undefined;
	/**
	 * The module each chunk worker runs, as a file URL, in place of parallel/parse-chunk-worker.js: a test gives one
	 * that fails part way (test/helpers/failing-chunk-worker.mjs) to see the main thread take over.
	 */
	chunkWorkerModule?: string | undefined;
	/** Time between the load worker's progress posts; 0: after every chunk. */
	progressIntervalMs?: number | undefined;
	/** Time between the load worker's posts of what changed (a second); 0: after every chunk. */
	changesIntervalMs?: number | undefined;
	/**
	 * The module the viewer's load worker runs, as a file URL, in place of viewer/load-worker.js: a test gives one
	 * that fails part way (test/helpers/failing-load-worker.mjs) to see the viewer load on its own thread instead.
	 */
	loadWorkerModule?: string | undefined;
	/** In the headless modes, how long an exited command's output may stay open with nothing coming (else 30 s). */
	outputOpenAfterExitMs?: number | undefined;
};
