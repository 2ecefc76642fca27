import {readdirSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

/*
 * vitest's global setup: many tests run the built CLI (dist/), so a bare `npx vitest run` after editing source/
 * would test yesterday's build and pass or fail for the wrong reason. It stops the run, saying so, when any
 * source file is newer than the build (`npm test` builds first, so it never is there). The same holds for the log
 * generator many tests run (tools/, built into build/tools/ with the model code it uses).
 */

const root = fileURLToPath(new URL('../../', import.meta.url));

function newest(dir: string): number {
	let latest = 0;
	for (const entry of readdirSync(dir, {withFileTypes: true})) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) latest = Math.max(latest, newest(path));
		else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) latest = Math.max(latest, statSync(path).mtimeMs);
	}

	return latest;
}

function builtAt(path: string): number {
	try {
		return statSync(join(root, path)).mtimeMs;
	} catch {
		return 0;
	}
}

export default function distIsFresh(): void {
	const built = builtAt('dist/bin/perscope.js');
	const source = newest(join(root, 'source'));
	if (built === 0) throw new Error('dist/ is missing: run `npm run build` (or `npm test`, which builds first)');
	if (source > built)
		throw new Error('source/ is newer than dist/: the tests that run the CLI would test an old build; run `npm run build` (or `npm test`, which builds first)');
	const generator = builtAt('build/tools/generate-log.js');
	const tools = Math.max(newest(join(root, 'tools')), newest(join(root, 'source', 'model')));
	if (generator === 0) throw new Error('build/tools/ is missing: run `npm run build` (or `npm test`, which builds first)');
	if (tools > generator) throw new Error('tools/ or source/model/ is newer than build/tools/: the tests would run an old log generator; run `npm run build`');
}
