import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {describe, expect, it} from 'vitest';
import {repoRoot} from '../helpers/cli-process.js';

const bin = join(repoRoot, 'dist', 'bin');

/**
 * Files the bundled command finds by a path relative to its own module (`new URL(path, import.meta.url)`): its
 * workers, the package's package.json and the demo log. In the bundle that module is a chunk in dist/bin/, not the
 * file tsc wrote, so each path must resolve from there. A worker that is not found is no error the tests would see:
 * the viewer then loads on its own thread and a large file's load only gets slower (scripts/bundle-cli.mjs).
 */
function relativeFiles(): Array<{chunk: string; path: string}> {
	const found = [];
	for (const chunk of readdirSync(bin).filter(name => name.endsWith('.js'))) {
		const code = readFileSync(join(bin, chunk), 'utf8');
		for (const match of code.matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)) found.push({chunk, path: match[1]!});
	}

	return found;
}

describe('the bundled command (dist/bin/)', () => {
	it('finds its workers, package.json and the demo log beside it, as the modules tsc wrote did', () => {
		const found = relativeFiles();
		expect(found.map(each => each.path)).toEqual(
			expect.arrayContaining(['load-worker.js', 'parse-chunk-worker.js', 'conversation-worker.js', '../../package.json', '../../fixtures/demo.ndjson']),
		);
		// Ink reads its own package.json only in its development mode, which the CLI hides (and then it was not found
		// from dist/views/ either).
		const missing = found
			.filter(each => !(each.chunk.startsWith('show-app.bundle-') && each.path === '../package.json'))
			.filter(each => !existsSync(fileURLToPath(new URL(each.path, pathToFileURL(join(bin, each.chunk))))));
		expect(missing).toEqual([]);
	});
});
