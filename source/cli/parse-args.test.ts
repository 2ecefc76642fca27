import {describe, expect, it} from 'vitest';
import {defaultMaxLineBytes} from '../parse/line-splitter.js';
import {nearestOption, parseCommandLine, type CommandLine, type RunRequest} from './parse-args.js';

async function request(argv: string[]): Promise<RunRequest> {
	const line = await parseCommandLine(argv);
	if (line.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(line)}`);
	return line.request;
}

async function error(argv: string[]): Promise<string> {
	const line: CommandLine = await parseCommandLine(argv);
	if (line.kind !== 'usage-error') throw new Error(`expected a usage error, got ${JSON.stringify(line)}`);
	return line.message;
}

describe('parseCommandLine', () => {
	it('defaults: files in order, no mode (the terminal decides), no filter, no replay', async () => {
		expect(await request(['a.ndjson', '-', 'b.ndjson'])).toEqual({
			paths: ['a.ndjson', '-', 'b.ndjson'],
			command: undefined,
			mode: undefined,
			follow: false,
			maxLineBytes: defaultMaxLineBytes,
			filter: undefined,
			replaySpeed: undefined,
			otlp: {url: undefined, file: undefined, content: false, version: expect.any(String) as string},
			claudeSessions: false,
			codexSessions: false,
			geminiSessions: false,
		});
	});

	it('takes --gemini alone, and says it cannot be combined with files, a command, --claude or --codex', async () => {
		expect((await request(['--gemini'])).geminiSessions).toBe(true);
		for (const [args, what] of [
			[['--gemini', 'a.ndjson'], 'files'],
			[['--gemini', '--', 'gemini', '-p', 'hi'], 'a command'],
			[['--gemini', '--claude'], '--claude'],
			[['--gemini', '--codex'], '--codex'],
		] as const) {
			const parsed = await parseCommandLine([...args]);
			expect(parsed, args.join(' ')).toMatchObject({kind: 'usage-error'});
			expect(JSON.stringify(parsed), args.join(' ')).toContain(`--gemini opens the Gemini CLI sessions of this directory; it cannot be combined with ${what}`);
		}
	});

	it('takes --otlp with a URL after it, or alone (the environment’s endpoint), and --otlp-file, --otlp-content', async () => {
		expect((await request(['--otlp', 'http://localhost:4318', 'a.ndjson'])).otlp).toMatchObject({url: 'http://localhost:4318'});
		const alone = await request(['--otlp', 'a.ndjson', '--otlp-file', 'out.jsonl', '--otlp-content']);
		expect(alone.otlp).toMatchObject({url: '', file: 'out.jsonl', content: true});
		expect(alone.paths).toEqual(['a.ndjson']);
		expect((await request(['a.ndjson', '--otlp'])).otlp.url).toBe('');
		expect(await error(['--otlp-file=', 'a.ndjson'])).toContain('--otlp-file');
	});

	it.each([
		[['--print'], 'print'],
		[['--json'], 'json'],
		[['--summary'], 'summary'],
		[['--summary', '--json'], 'summary-json'],
		[['--json', '--summary'], 'summary-json'],
	])('%j is the %s mode', async (argv, mode) => {
		expect((await request([...argv, 'x.ndjson'])).mode).toBe(mode);
	});

	it('--replay alone is speed 1 and leaves the next word a file; --replay=10 and --replay=10x are speeds', async () => {
		expect(await request(['--replay', 'package.json', 'x.ndjson'])).toMatchObject({replaySpeed: 1, paths: ['package.json', 'x.ndjson']});
		expect(await request(['a.ndjson', '--replay'])).toMatchObject({replaySpeed: 1, paths: ['a.ndjson']});
		expect((await request(['--replay=10', 'x'])).replaySpeed).toBe(10);
		expect((await request(['--replay=10x', 'x'])).replaySpeed).toBe(10);
	});

	it('--filter takes a word starting with -, repeats, and reads like --filter=', async () => {
		const separate = await request(['--filter', '-type:todo', '--filter', 'errors', 'x']);
		expect(separate.paths).toEqual(['x']);
		expect(separate.filter).toBeDefined();
		expect(await request(['--filter=-type:todo', '--filter=errors', 'x'])).toEqual(separate);
	});

	it('everything after the first -- is the command, untouched', async () => {
		expect(await request(['-f', 'log', '--', 'perstack', 'run', '--filter', 'x', '--', '--replay'])).toMatchObject({
			paths: ['log'],
			follow: true,
			command: ['perstack', 'run', '--filter', 'x', '--', '--replay'],
		});
	});

	it('--max-line-bytes N and --max-line-bytes=N', async () => {
		expect((await request(['--max-line-bytes', '1024', 'x'])).maxLineBytes).toBe(1024);
		expect((await request(['--max-line-bytes=2048', 'x'])).maxLineBytes).toBe(2048);
	});

	it('names unknown options as they were typed', async () => {
		expect(await error(['--foo-bar', 'x'])).toBe('unknown option --foo-bar');
		expect(await error(['-xy'])).toBe('unknown options -x, -y');
		expect(await error(['-fx', 'x'])).toBe('unknown option -x');
		expect(await error(['--maxLineBytes=5', 'x'])).toBe('unknown option --maxLineBytes (did you mean --max-line-bytes?)');
	});

	it('--dialect names the dialect every line is read as; a name it does not read is a usage error with the nearest one', async () => {
		expect((await request(['--dialect', 'drover', 'x'])).dialect).toBe('drover');
		expect((await request(['--dialect=Perstack', 'x'])).dialect).toBe('perstack');
		expect((await request(['x'])).dialect).toBeUndefined();
		expect(await error(['--dialect', 'drovr', 'x'])).toMatch(
			/^--dialect drovr is not a dialect perscope reads \(did you mean drover\?\); it reads perstack, .*drover, daemon$/,
		);
		expect(await error(['--dialect', 'jsonl', 'x'])).toMatch(/^--dialect jsonl is not a dialect perscope reads; it reads /);
		expect(await error(['x', '--dialect'])).toBe('--dialect needs a name, as in --dialect claude-code');
		expect(await error(['--dialect', 'drover', '--dialect', 'daemon', 'x'])).toBe('--dialect can be given only once');
	});

	it('an unknown option suggests the nearest one (#32: did you mean --summary?)', async () => {
		expect(await error(['--sumary', 'x'])).toBe('unknown option --sumary (did you mean --summary?)');
		expect(await error(['--folow', 'x'])).toBe('unknown option --folow (did you mean --follow?)');
		expect(await error(['--sumamry', 'x'])).toBe('unknown option --sumamry (did you mean --summary?)');
		expect(await error(['--conv', 'x'])).toBe('unknown option --conv (did you mean --conversation?)');
		// Nothing near: no guess.
		expect(await error(['--zzzzz', 'x'])).toBe('unknown option --zzzzz');
		expect(nearestOption('--x')).toBeUndefined();
	});

	it('-h and -v are --help and --version (#32)', async () => {
		expect(await parseCommandLine(['-h'])).toMatchObject({kind: 'help'});
		expect(await parseCommandLine(['-v'])).toMatchObject({kind: 'version'});
	});

	it('outputs that do not go together are a usage error (#32: --summary --print, --json --print)', async () => {
		expect(await error(['--summary', '--print', 'x'])).toBe('--print and --summary do not go together: choose one output');
		expect(await error(['--json', '--print', 'x'])).toBe('--print and --json do not go together: choose one output');
		expect(await error(['--summary', '--json', '--print', 'x'])).toBe('--print and --summary --json do not go together: choose one output');
		expect((await request(['--summary', '--json', 'x'])).mode).toBe('summary-json');
	});

	it('says which option lacks its value, and does not take the next option for it', async () => {
		expect(await error(['x', '--prices'])).toBe('--prices needs a file, as in --prices prices.json');
		expect(await error(['--prices', '-f', 'x'])).toBe('--prices needs a file, as in --prices prices.json');
		expect(await error(['--max-line-bytes', '--print', 'x'])).toBe('--max-line-bytes needs a number of bytes, as in --max-line-bytes 1048576');
		expect(await error(['x', '--filter'])).toBe('--filter needs an expression, as in --filter type:todo');
		expect(await error(['--otlp-file'])).toBe('--otlp-file needs a file name');
		// A file named "-" (stdin) is a value like any other.
		expect((await request(['--prices', '-', 'x'])).pricesFile).toBe('-');
	});

	it('refuses a value given to a switch, and a single-valued option given twice', async () => {
		expect(await error(['--print=false', 'x'])).toBe('--print takes no value');
		expect(await error(['--prices', 'a.json', '--prices=b.json', 'x'])).toBe('--prices can be given only once');
		// A switch given twice is the same switch.
		expect((await request(['--print', 'x', '--print'])).mode).toBe('print');
	});

	it('--help and --version win over everything else, mistakes included', async () => {
		expect(await parseCommandLine(['--print', 'x', '--help'])).toMatchObject({kind: 'help', text: expect.stringContaining('Usage')});
		expect(await parseCommandLine(['--bogus', '--summary', '--print', '--help'])).toMatchObject({kind: 'help'});
		expect(await parseCommandLine(['--prices', '--version'])).toMatchObject({kind: 'version'});
		expect(await parseCommandLine(['--version', '--json'])).toMatchObject({kind: 'version', text: expect.stringMatching(/^\d+\.\d+\.\d+\n$/)});
	});

	it('--help is the package description above the usage, indented as the help text is', async () => {
		const line = await parseCommandLine(['--help']);
		expect(line.kind).toBe('help');
		const text = line.kind === 'help' ? line.text : '';
		expect(text.startsWith('\n  A terminal UI event viewer for AI agent runs')).toBe(true);
		expect(text).toContain('\n\n  Usage\n    $ perscope [options] [FILE…]');
		expect(text.endsWith("2 bad usage · the command's own code with -- COMMAND\n")).toBe(true);
	});

	it('--help fits an 80-column terminal (#32)', async () => {
		const line = await parseCommandLine(['--help']);
		const text = line.kind === 'help' ? line.text : '';
		expect(text.split('\n').filter(row => [...row].length > 80)).toEqual([]);
	});
});

describe('--conversation RUN[@STEP]', () => {
	it('takes a run id or its start, and a step after @', async () => {
		expect(await request(['--conversation', '3f9a', 'run.ndjson'])).toMatchObject({
			mode: 'conversation',
			conversation: {run: '3f9a', step: undefined},
			paths: ['run.ndjson'],
		});
		expect(await request(['--conversation=3f9a@12', 'run.ndjson'])).toMatchObject({mode: 'conversation', conversation: {run: '3f9a', step: 12}});
		expect(await request(['--conversation', 'a@b@7'])).toMatchObject({conversation: {run: 'a@b', step: 7}});
	});

	it('says what is wrong with a bad one, or with an output mode beside it', async () => {
		expect(await error(['--conversation', '@3'])).toBe(
			'--conversation needs a run id or the start of one, as in --conversation 3f9a or --conversation 3f9a@12',
		);
		expect(await error(['--conversation', 'run@'])).toBe('--conversation: the step after "@" must be a whole number, as in run@12');
		expect(await error(['--conversation', 'run@-1'])).toBe('--conversation: the step after "@" must be a whole number, as in run@12');
		expect(await error(['--conversation', 'run', '--json', '-f'])).toBe(
			"--conversation prints one step's conversation; it cannot be combined with --json, --follow",
		);
	});
});
