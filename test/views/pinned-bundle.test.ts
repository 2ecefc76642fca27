import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {repoRoot} from '../helpers/cli-process.js';

/*
 * The views bundle (scripts/bundle-views.mjs) carries Ink, React and everything they import, built into
 * dist/ when perscope is packed: a user's install does not choose those versions, this repository does. Ink's
 * patches were written for one Ink, and text/width/ink-string-width.ts is held equal to one string-width, so every
 * package in the bundle is pinned to one exact version in package.json (a dependency, or an override under ink),
 * and that version is the one installed and bundled (#35).
 */

type Manifest = {
	dependencies: Record<string, string>;
	devDependencies: Record<string, string>;
	overrides?: {ink?: Record<string, string | Record<string, string>>};
};

const manifest: Manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const exact = /^\d+\.\d+\.\d+$/;

/** Each package directory the bundle's source map names, as node_modules/…/name. */
function bundledPackages(): string[] {
	const map: {sources: string[]} = JSON.parse(readFileSync(join(repoRoot, 'dist/views/show-app.bundle.js.map'), 'utf8'));
	const directories = new Set<string>();
	for (const source of map.sources) {
		const at = source.indexOf('node_modules/');
		if (at === -1) continue;
		const parts = source.slice(at).split('/');
		// node_modules/name or node_modules/@scope/name, then any nested node_modules/… below it.
		const path: string[] = [];
		for (let index = 0; index < parts.length - 1; index++) {
			if (parts[index] !== 'node_modules') break;
			const name = parts[index + 1]!.startsWith('@') ? `${parts[index + 1]}/${parts[index + 2]}` : parts[index + 1]!;
			path.push('node_modules', name);
			index += name.split('/').length;
		}

		directories.add(path.join('/'));
	}

	return [...directories];
}

/** The version package.json pins `directory`'s package to, or what it says instead. */
function pinnedVersion(directory: string): string | undefined {
	const names = directory.split('/node_modules/').map(part => part.replace(/^node_modules\//, ''));
	const [name] = names;
	const direct = manifest.dependencies[name!] ?? manifest.devDependencies[name!];
	if (names.length === 1 && direct !== undefined) return direct;
	let rule: string | Record<string, string> | undefined = manifest.overrides?.ink?.[name!];
	for (const nested of names.slice(1)) rule = typeof rule === 'object' ? rule[nested] : undefined;
	const version = typeof rule === 'object' ? rule['.'] : rule;
	// `$name` is npm's way of saying "the version the root depends on".
	return version?.startsWith('$') ? (manifest.dependencies[version.slice(1)] ?? manifest.devDependencies[version.slice(1)]) : version;
}

describe('the views bundle', () => {
	const packages = bundledPackages();

	it('is made of Ink, React and what they import', () => {
		expect(packages).toContain('node_modules/ink');
		expect(packages).toContain('node_modules/react');
		expect(packages).toContain('node_modules/widest-line');
		expect(packages).toContain('node_modules/cli-truncate');
	});

	it('holds only packages package.json pins exactly, at the version installed', () => {
		const loose = packages
			.map(directory => {
				const installed: string = JSON.parse(readFileSync(join(repoRoot, directory, 'package.json'), 'utf8')).version;
				return {directory, pinned: pinnedVersion(directory), installed};
			})
			.filter(({pinned, installed}) => pinned === undefined || !exact.test(pinned) || pinned !== installed);
		expect(loose).toEqual([]);
	});
});
