import {readdirSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));

/** Every file under fixtures/ whose name ends with one of `endings`, as absolute paths, sorted. */
export function fixtureFiles(endings: string[] = ['.ndjson']): string[] {
	const found: string[] = [];
	const walk = (dir: string) => {
		for (const name of readdirSync(dir)) {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) walk(path);
			else if (endings.some(ending => name.endsWith(ending))) found.push(path);
		}
	};
	walk(join(root, 'fixtures'));
	return found.sort();
}
