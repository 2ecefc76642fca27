import {readdirSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Every file under fixtures/ whose name ends with one of `endings`, as absolute paths, sorted: by default every
 * event log, Perstack's (`.ndjson`) and the agent CLIs' (`.jsonl`).
 */
export function fixtureFiles(endings: string[] = ['.ndjson', '.jsonl']): string[] {
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

/**
 * The event logs every headless test reads, as paths under fixtures/: the hand-written ones, `real/` (later main
 * recorded), `released/` (the released CLI 0.0.54 recorded), and the agent CLIs' streams (`claude-code/`,
 * `amp/`: recorded or collected real output), sorted.
 */
export function eventLogFixtures(): string[] {
	const named = (folder: string) =>
		readdirSync(join(root, 'fixtures', folder))
			.filter(name => name.endsWith('.ndjson'))
			.map(name => (folder === '' ? name : `${folder}/${name}`));
	return [...named(''), ...named('real'), ...named('released'), ...named('claude-code'), ...named('amp')].sort();
}

/** The agent CLIs' streams, recorded and collected (fixtures/codex/, fixtures/gemini/, fixtures/opencode/), as paths under fixtures/, sorted. */
export function agentCliFixtures(): string[] {
	const named = (folder: string) =>
		readdirSync(join(root, 'fixtures', folder))
			.filter(name => name.endsWith('.jsonl'))
			.map(name => `${folder}/${name}`);
	return ['codex', 'codex/samples', 'gemini', 'gemini/samples', 'opencode', 'opencode/samples'].flatMap(named).sort();
}
