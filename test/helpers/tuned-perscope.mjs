#!/usr/bin/env node
// The built CLI as a real process, with the loaders' settings for tests (load/tuning.ts) taken from this
// process's environment: a test that needs a real process (a terminal, a command's exit) and tiny chunks or a
// short idle bound runs this instead of dist/bin/perscope.js. The product reads none of these variables; a test
// that runs the CLI in its own process passes the settings directly (cli-in-process.ts).
//
//   PERSCOPE_CHUNK_BYTES=N       plain files are cut into chunks of N bytes
//   PERSCOPE_WORKERS=N           N chunk workers parse beside the main thread
//   PERSCOPE_MAIN_CLAIMS=0       the main thread leaves every chunk to the workers while one is alive
//   PERSCOPE_OUTPUT_OPEN_MS=N    headless, an exited command's output open N ms with nothing coming is read no further
import {runCli} from '../../dist/cli/run-cli.js';

/** A whole number of 0 or more, else undefined (unset, empty or anything else). */
function count(name) {
	const value = process.env[name];
	if (value === undefined || value.trim() === '') return undefined;
	const number = Number(value);
	return Number.isInteger(number) && number >= 0 ? number : undefined;
}

const tuning = {
	chunkBytes: count('PERSCOPE_CHUNK_BYTES'),
	chunkWorkers: count('PERSCOPE_WORKERS'),
	mainThreadParses: count('PERSCOPE_MAIN_CLAIMS') !== 0,
	outputOpenAfterExitMs: count('PERSCOPE_OUTPUT_OPEN_MS'),
};

process.title = 'perscope';
process.exitCode = await runCli(process.argv.slice(2), {streams: process, env: process.env, tuning});
// As main.ts: should anything still hold the process open once the run has returned, it is not left to it.
setTimeout(() => process.exit(), 2000).unref();
