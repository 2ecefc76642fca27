// tsc does not keep the executable bit; npm link / a global install need it on the bin.
import {chmodSync, existsSync} from 'node:fs';
if (existsSync('dist/cli.js')) chmodSync('dist/cli.js', 0o755);
