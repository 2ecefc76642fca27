import {spawnSync} from 'node:child_process';
import {existsSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {Ingest} from '../../load/ingest.js';
import {shapeLines} from '../../../tools/shape-log.js';
import type {InputPlan} from '../inputs.js';
import {RawEvents} from './raw-events.js';

const stdinPlan: InputPlan = {inputs: [{kind: 'stdin', label: 'stdin'}], label: 'stdin', demo: false, follow: false, jobsRoot: undefined};
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Feeds `text` as stdin would, in pieces of `piece` bytes, remembering each line the way the viewer does. */
function feed(raw: RawEvents, text: string, piece: number): Ingest {
	const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024, onLine: line => raw.remember(line)});
	const splitter = ingest.splitter('stdin');
	const bytes = Buffer.from(text);
	for (let at = 0; at < bytes.length; at += piece) splitter.push(bytes.subarray(at, at + piece));
	splitter.end();
	return ingest;
}

describe('the spool of stdin and commands', () => {
	it('reads every event of stdin again from its copy, however the bytes were cut', () => {
		const text = [...shapeLines({shape: 'tools', runs: 300, seed: 9})].join('\r\n').replace('query of run-0', 'query of run-0 ✓ ünïcode') + '\n';
		const lines = text.split('\n').map(line => line.replace(/\r$/, ''));
		for (const piece of [1, 977, 1 << 20]) {
			const raw = new RawEvents({spool: true, maxBytes: 0});
			raw.addPlan(stdinPlan);
			expect(raw.readsEveryLineAgain(stdinPlan)).toBe(true);
			const ingest = feed(raw, text, piece);
			for (const activity of ingest.model.activities) {
				expect(raw.read(activity.ref)).toBe(lines[activity.ref.line - 1]);
				if (activity.type === 'exec' && activity.result) expect(raw.read(activity.result.ref)).toBe(lines[activity.result.ref.line - 1]);
			}

			const directory = raw.spoolDirectory;
			expect(directory && readdirSync(directory)).toHaveLength(1);
			raw.close();
			expect(directory && existsSync(directory)).toBe(false);
			expect(raw.read(ingest.model.activities[0]!.ref)).toBeUndefined();
		}
	});

	it('copies a stream so that it reads whole as the stream did: no zeros where a \\r, a byte-order mark or a blank line was', () => {
		const text = '\uFEFF{"a":1}\r\n\n{"b":"ü"}\r\n   \n{"c":3}';
		const raw = new RawEvents({spool: true, maxBytes: 0});
		raw.addPlan(stdinPlan);
		feed(raw, text, 3);
		const path = raw.fileOf('stdin')!;
		const copy = readFileSync(path);
		expect(copy.includes(0)).toBe(false);
		// Every line where the stream had it, the rest blank.
		const lines = copy
			.toString('utf8')
			.split('\n')
			.map(line => line.trim())
			.filter(line => line !== '');
		expect(lines).toEqual(['{"a":1}', '{"b":"ü"}', '{"c":3}']);
		expect(copy.indexOf('{"b"')).toBe(Buffer.from(text).indexOf('{"b"'));
		expect(copy.indexOf('{"c"')).toBe(Buffer.from(text).indexOf('{"c"'));
		raw.close();
	});

	it('keeps lines itself, without failing, when the copy cannot be written', () => {
		const raw = new RawEvents({spool: true});
		raw.addPlan(stdinPlan);
		rmSync(raw.spoolDirectory!, {recursive: true, force: true});
		const text = readFileSync(`${root}fixtures/demo.ndjson`, 'utf8');
		const lines = text.split('\n').map(line => line.replace(/\r$/, ''));
		const ingest = feed(raw, text, 4096);
		expect(ingest.model.activities.length).toBeGreaterThan(0);
		for (const activity of ingest.model.activities) expect(raw.read(activity.ref)).toBe(lines[activity.ref.line - 1]);
		raw.close();
	});

	it('is not made without a stream to copy, and without it a stream is not read again', () => {
		const raw = new RawEvents();
		raw.addPlan(stdinPlan);
		expect(raw.spoolDirectory).toBeUndefined();
		expect(raw.readsEveryLineAgain(stdinPlan)).toBe(false);
	});

	for (const ending of ['exit', 'SIGTERM'] as const) {
		it(`is removed when the process ends (${ending})`, () => {
			// As the viewer does: a signal ends it by exiting (app/interactive.ts), which runs the exit handlers.
			const script = `
				const {RawEvents} = await import(${JSON.stringify(`${root}dist/input/reread/raw-events.js`)});
				const raw = new RawEvents({spool: true});
				raw.addPlan({inputs: [{kind: 'stdin', label: 'stdin'}], label: 'stdin', demo: false, follow: false, jobsRoot: undefined});
				raw.remember({source: 'stdin', line: 1, offset: 0, text: '{"type":"startRun"}'});
				raw.read({source: 'stdin', line: 1, offset: 0});
				process.stdout.write(raw.spoolDirectory + '\\n');
				process.on('SIGTERM', () => process.exit(143));
				if (${JSON.stringify(ending)} === 'SIGTERM') { process.kill(process.pid, 'SIGTERM'); setTimeout(() => {}, 5000); }
			`;
			const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {encoding: 'utf8'});
			const directory = child.stdout.trim();
			expect(child.stderr).toBe('');
			expect(child.status).toBe(ending === 'exit' ? 0 : 143);
			expect(directory).toMatch(/perscope-spool-/);
			expect(existsSync(directory)).toBe(false);
		});
	}

	it('copies the file readable by its owner only', () => {
		const raw = new RawEvents({spool: true});
		raw.addPlan(stdinPlan);
		feed(raw, readFileSync(`${root}fixtures/demo.ndjson`, 'utf8'), 4096);
		const directory = raw.spoolDirectory!;
		expect(readdirSync(directory)).toEqual(['0.ndjson']);
		expect(statSync(directory).mode & 0o077).toBe(0);
		expect(statSync(`${directory}/0.ndjson`).mode & 0o077).toBe(0);
		raw.close();
	});
});
