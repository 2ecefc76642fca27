import type {Readable, Writable} from 'node:stream';

/**
 * The standard streams a headless run reads and writes: the process's (cli/main.ts), or streams of a test's own
 * (the golden tests run the CLI in process, test/output/headless-outputs.ts). The viewer draws on the process's
 * terminal whatever is given here.
 */
export type StdStreams = {stdin: Readable; stdout: Writable; stderr: Writable};

/** Whether a stream is a terminal (process.stdin and process.stdout say so; a test's streams are not). */
export function isTerminal(stream: Readable | Writable): boolean {
	return Reflect.get(stream, 'isTTY') === true;
}
