import {readdirSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

/*
 * vitest's global setup: many tests run the built CLI (dist/), so a bare `npx vitest run` after editing source/
 * would test yesterday's build and pass or fail for the wrong reason. It stops the run, saying so, when any
 * source file is newer than the build (`npm test` builds first, so it never is there).
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

export default function distIsFresh(): void {
	const built = (() => {
		try {
			return statSync(join(root, 'dist/cli/main.js')).mtimeMs;
		} catch {
			return 0;
		}
	})();
	const source = newest(join(root, 'source'));
	if (built === 0) throw new Error('dist/ is missing: run `npm run build` (or `npm test`, which builds first)');
	if (source > built) throw new Error('source/ is newer than dist/: the tests that run the CLI would test an old build; run `npm run build` (or `npm test`, which builds first)');
}
