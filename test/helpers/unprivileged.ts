import {spawnSync, type SpawnSyncOptions} from 'node:child_process';
import {chmodSync, lstatSync, readdirSync} from 'node:fs';
import {join} from 'node:path';
import {cliPath, repoRoot} from './cli-process.js';

/*
 * Files that cannot be read, tested where the tests run as root (CI does): root reads everything, so the CLI is
 * run as an unprivileged user instead. As `nobody` when it can read the built CLI; where the checkout is out of
 * its reach (a home directory of mode 700), as root without the capabilities that let root read what it may
 * not (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), which file modes then bind as they bind anyone. Not as root:
 * as itself.
 */

const asNobody = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'];
const withoutOverride = ['setpriv', '--bounding-set=-dac_override,-dac_read_search'];

let prefix: string[] | undefined;

/** The command line prefix that drops root's privileges (empty when not root). */
export function unprivilegedPrefix(): string[] {
	if (prefix) return prefix;
	if (process.getuid?.() !== 0) return (prefix = []);
	const nobodyReadsCli = spawnSync(
		asNobody[0]!,
		[...asNobody.slice(1), process.execPath, '-e', `require('node:fs').accessSync(${JSON.stringify(cliPath)}, require('node:fs').constants.R_OK)`],
		{stdio: 'ignore'},
	);
	prefix = nobodyReadsCli.status === 0 ? asNobody : withoutOverride;
	return prefix;
}

/**
 * Lets an unprivileged user reach and read what a test made (mkdtemp makes 700), before it takes some of that
 * away: each of `directories` itself, and `tree` with everything in it. Links are not followed (one may point at
 * /dev/zero), and nothing but directories and regular files is touched.
 */
export function openToEveryone(directories: string[], tree: string): void {
	for (const directory of directories) chmodSync(directory, 0o755);
	const walk = (path: string) => {
		const stats = lstatSync(path);
		if (stats.isDirectory()) {
			chmodSync(path, 0o755);
			for (const name of readdirSync(path)) walk(join(path, name));
		} else if (stats.isFile()) {
			chmodSync(path, 0o644);
		}
	};

	walk(tree);
}

export type UnprivilegedResult = {status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string};

/** Runs the built CLI without root's privileges, stdin closed, as CI does. */
export function perscopeUnprivileged(args: string[], options: Pick<SpawnSyncOptions, 'timeout'> = {}): UnprivilegedResult {
	const [command, ...rest] = [...unprivilegedPrefix(), process.execPath, cliPath, ...args];
	const result = spawnSync(command!, rest, {
		cwd: repoRoot,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		timeout: options.timeout ?? 30_000,
		killSignal: 'SIGKILL',
		maxBuffer: 64 * 1024 * 1024,
	});
	return {status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr};
}
