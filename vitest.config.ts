import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {defineConfig} from 'vitest/config';

// The CLIs the tests start keep their listings (load/listing-cache.ts) here, apart from the person's own: a folder of
// this run's, removed when it ends.
const listingCache = mkdtempSync(join(tmpdir(), 'perscope-tests-cache-'));
process.once('exit', () => rmSync(listingCache, {recursive: true, force: true}));

export default defineConfig({
	// With React's production build (test.env below), JSX compiles to its production calls.
	oxc: {jsx: {development: false}},
	test: {
		include: ['source/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
		// A third of the tests run the built CLI: a build older than source/ stops the run (#35).
		globalSetup: ['test/helpers/dist-is-fresh.ts'],
		// Many test files spend most of their time waiting for a CLI they started (golden outputs, exits, the
		// tmux end-to-end tests): on a 2-core machine vitest's default of one worker leaves a core idle while
		// they wait. Three workers keep both busy.
		maxWorkers: 3,
		// Each test file used to get a fresh module graph: most of a unit test file's time was importing and
		// transforming the same sources again. No test changes process-wide state (environment, mocks), so the
		// files of a worker share their modules.
		isolate: false,
		// The views run in the tests as the CLI runs them (cli/ink-environment.ts asks for React's production build):
		// the development build checks and records so much that the view tests cost ~25 % more CPU, and its
		// warnings only print, they fail no test.
		env: {NODE_ENV: 'production', XDG_CACHE_HOME: listingCache},
		// End-to-end tests drive real processes in real terminals; they wait on content, not on fixed sleeps.
		testTimeout: 30_000,
		hookTimeout: 30_000,
	},
});
