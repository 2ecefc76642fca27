// The first step of `npm run build`: tsc only writes, it never deletes, so a module that was moved or removed
// (dist/tui/, dist/present/, dist/lib/ of older checkouts) would stay in dist/ and ship with `npm pack`. dist/
// and build/ (the workshop's tools) are made again from nothing. vitest's global setup
// (test/helpers/dist-is-fresh.ts) then finds the whole build newer than source/.
import {rmSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
for (const directory of ['dist', 'build']) rmSync(join(root, directory), {recursive: true, force: true});
