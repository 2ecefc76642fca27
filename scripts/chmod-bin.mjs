// tsc does not keep the executable bit; npm link / a global install need it on the bin.
import {chmodSync, existsSync} from 'node:fs';
if (existsSync('dist/cli/main.js')) chmodSync('dist/cli/main.js', 0o755);
