/*
 * Ink and chalk decide once, when first imported, whether they run in CI (then Ink draws nothing until exit)
 * and whether to colour. A person at a real terminal wants live frames even if their shell has CI set, and
 * chalk ignores NO_COLOR: so Ink is imported with CI hidden and, under NO_COLOR, FORCE_COLOR=0. React picks
 * its build the same way: without NODE_ENV=production it loads the development build, which checks and
 * records so much that drawing costs several times more CPU (a shell often has NODE_ENV unset or set to
 * development). The variables are put back once Ink is loaded, for any child the viewer starts.
 *
 * This is the one place that changes the environment (and, while Ink loads, hides `fetch`: `hideFetch`);
 * README.md ("Environment") lists what is read.
 */

/** Hidden while Ink loads: each makes Ink believe it runs in CI. */
const ciNames = ['CI', 'CONTINUOUS_INTEGRATION'] as const;

/** Everything set or hidden here, to be put back. */
const changedNames = [...ciNames, 'DEV', 'FORCE_COLOR', 'NODE_ENV'] as const;

/**
 * Hides `fetch` from `scope` (the global object) while Ink loads, and returns what puts it back as it was. Ink's
 * layout engine (yoga, WebAssembly) asks `typeof fetch` as it starts, to choose how to fetch its module, and in
 * Node 20 that first look at `fetch` loads the whole of Node's fetch (undici): tens of milliseconds of the first
 * frame for nothing, since yoga's module is in the bundle and is instantiated from its bytes. `fetch` comes back
 * as it was, still loaded only when first used.
 */
function hideFetch(scope: object): () => void {
	const descriptor = Object.getOwnPropertyDescriptor(scope, 'fetch');
	if (!descriptor?.configurable) return () => undefined;
	Object.defineProperty(scope, 'fetch', {value: undefined, configurable: true, writable: true, enumerable: descriptor.enumerable ?? false});
	return () => {
		Object.defineProperty(scope, 'fetch', descriptor);
	};
}

/**
 * Sets `env` (the process's environment by default) and `scope` (the global object) up for importing Ink and
 * React, and returns what puts them back as they were.
 */
export function prepareInkEnvironment(env: NodeJS.ProcessEnv = process.env, scope: object = globalThis): () => void {
	const showFetch = hideFetch(scope);
	const saved = changedNames.map(name => [name, env[name]] as const);
	env['NODE_ENV'] = 'production';
	for (const name of ciNames) delete env[name];
	// DEV=true (a name other tools use too) turns on Ink's development mode when its reconciler module loads:
	// it would read Ink's package.json and import React DevTools, neither of which the bundled views have. At
	// render Ink only offers its tree to a DevTools hook, if one is installed, so DEV is back by then.
	delete env['DEV'];
	if (env['NO_COLOR'] && !('FORCE_COLOR' in env)) env['FORCE_COLOR'] = '0';
	return () => {
		showFetch();
		for (const [name, value] of saved) {
			if (value === undefined) delete env[name];
			else env[name] = value;
		}
	};
}
