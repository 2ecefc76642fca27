/*
 * Ink and chalk decide once, when first imported, whether they run in CI (then Ink draws nothing until exit)
 * and whether to colour. A person at a real terminal wants live frames even if their shell has CI set, and
 * chalk ignores NO_COLOR: so Ink is imported with CI hidden and, under NO_COLOR, FORCE_COLOR=0. React picks
 * its build the same way: without NODE_ENV=production it loads the development build, which checks and
 * records so much that drawing costs several times more CPU (a shell often has NODE_ENV unset or set to
 * development). The variables are put back once Ink is loaded, for any child the viewer starts.
 *
 * This is the one place that changes the environment; README.md ("Environment") lists what is read.
 */

/** Hidden while Ink loads: each makes Ink believe it runs in CI. */
const ciNames = ['CI', 'CONTINUOUS_INTEGRATION'] as const;

/** Everything set or hidden here, to be put back. */
const changedNames = [...ciNames, 'DEV', 'FORCE_COLOR', 'NODE_ENV'] as const;

/**
 * Sets `env` (the process's environment by default) up for importing Ink and React, and returns what puts
 * it back as it was.
 */
export function prepareInkEnvironment(env: NodeJS.ProcessEnv = process.env): () => void {
	const saved = changedNames.map(name => [name, env[name]] as const);
	env['NODE_ENV'] = 'production';
	for (const name of ciNames) delete env[name];
	// DEV=true (a name other tools use too) turns on Ink's development mode when its reconciler module loads:
	// it would read Ink's package.json and import React DevTools, neither of which the bundled views have. At
	// render Ink only offers its tree to a DevTools hook, if one is installed, so DEV is back by then.
	delete env['DEV'];
	if (env['NO_COLOR'] && !('FORCE_COLOR' in env)) env['FORCE_COLOR'] = '0';
	return () => {
		for (const [name, value] of saved) {
			if (value === undefined) delete env[name];
			else env[name] = value;
		}
	};
}
