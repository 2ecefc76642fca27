import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {closeSync, constants, mkdtempSync, openSync, readSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {StringDecoder} from 'node:string_decoder';

/**
 * One tmux control-mode client (`tmux -C attach`) per session, spoken to synchronously: a command is a line written
 * to it, its answer the lines between `%begin` and `%end`. The end-to-end tests read the screen every 50 ms while
 * they wait; as a `tmux` process each time, that was ~4,500 processes a run of the suite, each blocking its test
 * worker while it ran. A control client answers the same commands with the same output, from one process.
 *
 * The tests' API is synchronous, so an answer is waited for without an event loop turn: the client's stdout is a
 * named pipe this process opens itself and reads without blocking, with `Atomics.wait` between reads, bounded by
 * a deadline. A command is written to the client's stdin, a pipe: a short write into an empty pipe is made at once.
 * The client is attached with `no-output` (no `%output` copy of what the pane shows) and `ignore-size` (the
 * window keeps the size the test gave it). Those flags are given to the attach: set afterwards by
 * `refresh-client -f`, the command went unanswered about once in 150 sessions (tmux 3.3a).
 */
export class TmuxControl {
	private readonly directory: string;
	private readonly answers: number;
	private readonly client: ChildProcess;
	private pending = '';
	private readonly pause = new Int32Array(new SharedArrayBuffer(4));
	private readonly chunk = Buffer.alloc(1 << 16);
	// A character's bytes may be split between two reads.
	private readonly decoder = new StringDecoder('utf8');
	// What it said last, for the message when it does not answer.
	private readonly recent: string[] = [];

	constructor(socket: string, session: string) {
		this.directory = mkdtempSync(join(tmpdir(), 'perscope-tmux-control-'));
		const answersPath = join(this.directory, 'answers');
		const made = spawnSync('mkfifo', [answersPath]);
		if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr?.toString() ?? ''}`);
		// Read without blocking; the write end is tmux's alone, so its exit ends the pipe.
		this.answers = openSync(answersPath, constants.O_RDONLY | constants.O_NONBLOCK);
		const answersForTmux = openSync(answersPath, constants.O_WRONLY | constants.O_NONBLOCK);
		this.client = spawn('tmux', ['-L', socket, '-C', 'attach-session', '-f', 'no-output,ignore-size', '-t', session], {
			stdio: ['pipe', answersForTmux, 'ignore'],
		});
		this.client.unref();
		// A client gone is said by the wait for its answer ("ended"), not by an error event no one listens to.
		this.client.stdin!.on('error', () => {});
		closeSync(answersForTmux);
		// The attach's own (empty) answer; a client that never gives it goes with the error.
		try {
			this.answer();
		} catch (error) {
			this.close();
			throw error;
		}
	}

	/** Runs one tmux command; returns its output as the `tmux` program prints it (each line ended by a newline). */
	run(args: readonly string[], timeoutMs = 10_000): string {
		this.client.stdin!.write(`${args.map(quoteForTmux).join(' ')}\n`);
		return this.answer(timeoutMs);
	}

	/** Whether tmux's own command parser can be given these arguments on one line (no control characters in them). */
	static canQuote(args: readonly string[]): boolean {
		return args.every(arg => !/[\u0000-\u001F\u007F]/.test(arg));
	}

	close(): void {
		this.client.stdin!.destroy();
		this.client.kill();
		closeSync(this.answers);
		rmSync(this.directory, {recursive: true, force: true});
	}

	/** The next answer block; notifications between blocks (`%window-renamed`, …) are skipped. */
	private answer(timeoutMs = 10_000): string {
		const deadline = Date.now() + timeoutMs;
		let number: string | undefined;
		let output = '';
		for (;;) {
			const line = this.line(deadline);
			if (number === undefined) {
				number = /^%begin \d+ (\d+) \d+$/.exec(line)?.[1];
				continue;
			}

			const end = /^%(end|error) \d+ (\d+) \d+$/.exec(line);
			if (end?.[2] === number) {
				if (end[1] === 'error') throw new Error(`tmux: ${output.trim()}`);
				return output;
			}

			output += `${line}\n`;
		}
	}

	private line(deadline: number): string {
		for (;;) {
			const end = this.pending.indexOf('\n');
			if (end !== -1) {
				const line = this.pending.slice(0, end);
				this.pending = this.pending.slice(end + 1);
				this.recent.push(line);
				if (this.recent.length > 20) this.recent.shift();
				return line;
			}

			let read: number;
			try {
				read = readSync(this.answers, this.chunk, 0, this.chunk.length, null);
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
				if (Date.now() > deadline)
					throw new Error(
						`tmux control client: no answer in time; last lines read:\n${this.recent.join('\n')}\npending: ${JSON.stringify(this.pending)}; client exit: ${this.client.exitCode ?? this.client.signalCode ?? 'running'}`,
					);
				Atomics.wait(this.pause, 0, 0, 2);
				continue;
			}

			if (read === 0) throw new Error('tmux control client ended');
			this.pending += this.decoder.write(this.chunk.subarray(0, read));
		}
	}
}

/** An argument as tmux's command parser reads it back: single-quoted, a quote itself outside the quotes. */
function quoteForTmux(arg: string): string {
	return `'${arg.replaceAll("'", "'\\''")}'`;
}
