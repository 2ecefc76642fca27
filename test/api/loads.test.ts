import {spawnSync} from 'node:child_process';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {cliPath, repoRoot} from '../helpers/cli-process.js';
import {scratchDirectories} from '../helpers/scratch.js';

const scratch = scratchDirectories('perscope-loads-');

const tracer = join(repoRoot, 'test/helpers/trace-packages.mjs');

/** The packages (by name) a node process loaded, as the tracing hook saw them resolved. */
function packagesLoaded(args: string[]): Set<string> {
	const result = spawnSync(process.execPath, ['--import', tracer, ...args], {cwd: repoRoot, encoding: 'utf8'});
	expect(result.status, result.stderr).toBe(0);
	const names = new Set<string>();
	for (const line of result.stderr.split('\n')) {
		const match = /^perscope-package .*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line);
		if (match) names.add(match[1]!);
	}

	return names;
}

const heavy = (name: string) => name === 'ink' || name === 'react' || name.startsWith('@opentelemetry/');

describe('what each entry loads', () => {
	it('the library’s entry, reading a log and summarising it, loads neither Ink, React nor OpenTelemetry', () => {
		const script = `import {createReducer} from 'perscope'; import {readFileSync} from 'node:fs';
const reducer = createReducer(); reducer.pushChunk(readFileSync('fixtures/demo.ndjson')); reducer.end(); reducer.summaryJson();`;
		const loaded = packagesLoaded(['--input-type=module', '-e', script]);
		expect([...loaded].filter(heavy)).toEqual([]);
	});

	it('the OpenTelemetry packages load only with --otlp or --otlp-file', () => {
		const demo = join(repoRoot, 'fixtures/demo.ndjson');
		for (const mode of [['--summary'], ['--summary', '--json'], ['--print'], ['--json']]) {
			expect(
				[...packagesLoaded([cliPath, ...mode, demo])].filter(name => name.startsWith('@opentelemetry/')),
				mode.join(' '),
			).toEqual([]);
		}

		const withFile = packagesLoaded([cliPath, '--summary', '--otlp-file', join(scratch(), 'spans.jsonl'), demo]);
		expect([...withFile].some(name => name.startsWith('@opentelemetry/'))).toBe(true);
	});
});
