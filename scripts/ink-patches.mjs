// The reviewed patches to Ink that the views bundle carries (issue #17: no text patches of a dependency under
// an open version range). Ink is pinned to one version in package.json; scripts/bundle-views.mjs applies each
// patch to its file as esbuild loads it, and node_modules stays as installed (tests use Ink as it is). Each
// patch file names the sha256 of the file it was written for, and any other content fails the build: a new
// Ink must be looked at before a patch is carried over to it, or the patch dropped.
import {createHash} from 'node:crypto';
import {readFileSync, realpathSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

/** Each patched file of Ink's package, and its patch in scripts/patches/. */
export const inkPatches = [
	{file: 'build/output.js', patch: 'ink-output-rows.patch'},
	{file: 'build/measure-text.js', patch: 'ink-measure-cache.patch'},
	{file: 'build/wrap-text.js', patch: 'ink-wrap-cache.patch'},
];

const patches = fileURLToPath(new URL('patches/', import.meta.url));

/**
 * A unified diff applied to `source`, which must hash to the sha256 the patch's preamble names; every context
 * and removed line must be where the patch says. Throws, naming `patchName`, when anything differs.
 */
export function applyPatch(source, patchText, patchName) {
	const fail = reason => {
		throw new Error(`${patchName}: ${reason}; review the patch for the installed Ink, or remove it`);
	};

	const expected = /^sha256 ([\da-f]{64})$/m.exec(patchText.slice(0, patchText.indexOf('\n--- ')))?.[1];
	if (!expected) fail('no "sha256 …" line before the diff');
	const actual = createHash('sha256').update(source).digest('hex');
	if (actual !== expected) fail(`the file to patch is not the one the patch was written for (sha256 ${actual}, expected ${expected})`);

	const lines = source.split('\n');
	const result = [];
	let next = 0;
	const diff = patchText.slice(patchText.indexOf('\n@@ ') + 1).split('\n');
	if (diff.at(-1) === '') diff.pop();
	for (const line of diff) {
		const hunk = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(line);
		if (hunk) {
			const start = Number(hunk[1]) - 1;
			if (start < next) fail(`hunk "${line}" overlaps the one before`);
			result.push(...lines.slice(next, start));
			next = start;
		} else if (line.startsWith('+')) {
			result.push(line.slice(1));
		} else if (line.startsWith(' ') || line.startsWith('-')) {
			if (lines[next] !== line.slice(1)) fail(`line ${next + 1} is not ${JSON.stringify(line.slice(1))}`);
			if (line.startsWith(' ')) result.push(lines[next]);
			next++;
		} else if (!line.startsWith('\\')) {
			fail(`unexpected line in the diff: ${JSON.stringify(line)}`);
		}
	}

	result.push(...lines.slice(next));
	return result.join('\n');
}

/**
 * An esbuild plugin that applies `inkPatches` to Ink's files in `inkDir` as they are loaded. `applied()` lists
 * the files patched, so that the build can fail when Ink no longer loads one (the patch would be silently lost).
 */
export function inkPatchPlugin(inkDir) {
	const patched = new Set();
	// esbuild loads files by their real path: node_modules may be a link (a shared or linked install).
	const dir = realpathSync(inkDir);
	const byPath = new Map(inkPatches.map(each => [join(dir, each.file), each]));
	return {
		applied: () => inkPatches.filter(each => patched.has(each.file)).map(each => each.file),
		plugin: {
			name: 'perscope-ink-patches',
			setup(build) {
				build.onLoad({filter: /[\\/]ink[\\/]build[\\/][^\\/]+\.js$/}, args => {
					const entry = byPath.get(args.path);
					if (!entry) return undefined;
					const contents = applyPatch(readFileSync(args.path, 'utf8'), readFileSync(join(patches, entry.patch), 'utf8'), `scripts/patches/${entry.patch}`);
					patched.add(entry.file);
					// Ink's source map describes the file as shipped, not as patched.
					return {contents: contents.replace(/\n\/\/# sourceMappingURL=\S+$/, '\n'), loader: 'js'};
				});
			},
		},
	};
}
