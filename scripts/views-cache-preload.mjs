// Loaded (`--import`) by scripts/views-script.mjs into a viewer the build starts in a pseudo-terminal on the bundled
// demo log: once the viewer has drawn and has written nothing for a while (the log read and shown), it writes the
// code V8 has compiled for the views so far (their code cache) and ends the process. Only the build runs this;
// nothing the package ships reads these variables.
import {writeFileSync} from 'node:fs';

/** The views' runner module (dist/bin/show-app.bundle-*.js), as the CLI imports it, and where the cache goes. */
const runner = process.env.PERSCOPE_BUILD_VIEWS;
const cachePath = process.env.PERSCOPE_BUILD_VIEWS_CACHE;
if (!runner || !cachePath) throw new Error('views-cache-preload: PERSCOPE_BUILD_VIEWS and PERSCOPE_BUILD_VIEWS_CACHE must be set');

/** What the views write first (views/show-app.tsx clears the screen for Ink): the views are loaded by then. */
const clearScreen = '\u001B[2J';
const quietMs = 700;
/** A viewer that never goes quiet ends without a cache: the build then writes one of the views' top level. */
const giveUpMs = 30_000;

let drawing = false;
let quiet;
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (...args) => {
	drawing ||= String(args[0]).includes(clearScreen);
	clearTimeout(quiet);
	if (drawing) quiet = setTimeout(finish, quietMs);
	return write(...args);
};

setTimeout(() => process.exit(3), giveUpMs).unref();

async function finish() {
	// The CLI imported the runner before it drew: this is the same module, not a second evaluation.
	const {viewsScript} = await import(runner);
	writeFileSync(cachePath, viewsScript.createCachedData());
	process.exit(0);
}
