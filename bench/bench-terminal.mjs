// The viewer in a real terminal for the bench: tmux, with the pane's output read through a named pipe as it
// is written, so that waiting for a screen costs no CPU the viewer being measured could use.
import {execFileSync, spawnSync} from 'node:child_process';
import {createReadStream, readFileSync, writeFileSync} from 'node:fs';

/** Ink writes each frame whole between these synchronized-update markers. */
export const frameStart = '\u001B[?2026h';
export const frameEnd = '\u001B[?2026l';

const quote = text => `'${text.replaceAll("'", "'\\''")}'`;

let terminalsStarted = 0;

export class Terminal {
	/** The pane's output as it arrived, in chunks; `output()` joins them when asked. */
	#chunks = [];
	#joined = Buffer.alloc(0);
	/** Called when more output arrives. */
	#arrived = () => {};
	#stream;
	#opened;

	/**
	 * `options.keepOutput` false: the output is not kept (a soak's would grow by gigabytes), only handed to
	 * `options.onData` as it arrives; `output()` is then empty and waitForOutput/waitForFrame see nothing.
	 */
	constructor(name, command, capture, {keepOutput = true, onData} = {}) {
		// A socket of its own per terminal: a server just killed on a reused socket can still be going away
		// when the next one starts there, and tmux then fails with "server exited unexpectedly".
		this.socket = `perscope-bench-${process.pid}-${name}-${++terminalsStarted}`;
		this.capture = capture;
		// The pane's output comes through a named pipe, read as it arrives. Polling a capture file instead
		// (read whole every 2 ms) took ~6 % of a CPU from the viewer being measured, on a machine of two.
		const fifo = `${capture}.fifo`;
		execFileSync('mkfifo', [fifo]);
		this.#stream = createReadStream(fifo);
		this.#opened = new Promise((resolve, reject) => {
			this.#stream.once('open', resolve);
			this.#stream.once('error', reject);
		});
		this.#stream.on('data', chunk => {
			if (keepOutput) this.#chunks.push(chunk);
			onData?.(chunk);
			this.#arrived();
		});
		// The shell waits for Enter, so the pipe is read before the viewer writes anything.
		this.tmux('new-session', '-d', '-s', 'bench', '-x', '160', '-y', '48', 'sh', '-c', `read _ && ${command}; sleep 600`);
		this.tmux('pipe-pane', '-t', 'bench', '-o', `cat > ${quote(fifo)}`);
	}

	tmux(...args) {
		return execFileSync('tmux', ['-L', this.socket, ...args], {encoding: 'utf8'});
	}

	/** Types Enter for the waiting shell, which runs the command; when it was typed. */
	async start() {
		await this.#opened;
		const started = performance.now();
		this.tmux('send-keys', '-t', 'bench', 'Enter');
		return started;
	}

	/** Gives the terminal another size, as a person dragging its window would (the program gets SIGWINCH). */
	resize(width, height) {
		this.tmux('resize-window', '-t', 'bench', '-x', String(width), '-y', String(height));
	}

	/** Bytes the terminal received so far. */
	output() {
		if (this.#chunks.length > 0) this.#joined = Buffer.concat([this.#joined, ...this.#chunks.splice(0)]);
		return this.#joined;
	}

	/** Resolves when more output arrives, or at `deadline` (a performance.now() time). */
	#more(deadline) {
		return new Promise(resolve => {
			const timer = setTimeout(resolve, Math.max(0, deadline - performance.now()));
			this.#arrived = () => {
				clearTimeout(timer);
				this.#arrived = () => {};
				resolve();
			};
		});
	}

	/** Sends keys (tmux key names or text) and returns when they were sent. */
	keys(...keys) {
		const sent = performance.now();
		this.tmux('send-keys', '-t', 'bench', ...keys);
		return sent;
	}

	/**
	 * Waits until the received bytes (from byte `from` on) contain `text` (or any of several); the time it
	 * arrived, or undefined on timeout.
	 */
	async waitForOutput(text, timeoutMs, from = 0) {
		const needles = [text].flat().map(each => Buffer.from(each));
		const longest = Math.max(...needles.map(needle => needle.length));
		const deadline = performance.now() + timeoutMs;
		let searched = from;
		while (performance.now() < deadline) {
			const bytes = this.output();
			const start = Math.max(from, searched - longest);
			if (needles.some(needle => bytes.indexOf(needle, start) !== -1)) return performance.now();
			searched = bytes.length;
			await this.#more(deadline);
		}

		return undefined;
	}

	/**
	 * Waits for a whole frame (from byte `from` on) for which `test` holds; its text and the time it arrived,
	 * or undefined on timeout.
	 */
	async waitForFrame(test, timeoutMs, from = 0) {
		const deadline = performance.now() + timeoutMs;
		// Where the next frame is looked for, in the text decoded from byte `from` on.
		let searched = 0;
		while (performance.now() < deadline) {
			const text = this.output().toString('utf8', from);
			for (;;) {
				const start = text.indexOf(frameStart, searched);
				const end = start === -1 ? -1 : text.indexOf(frameEnd, start);
				if (end === -1) break;
				const frame = text.slice(start + frameStart.length, end);
				if (test(frame)) return {frame, at: performance.now()};
				searched = end;
			}

			await this.#more(deadline);
		}

		return undefined;
	}

	/**
	 * The peak resident memory (VmHWM, in KB) of the command the pane's shell runs, from /proc: its whole
	 * process, the load worker's thread included. Undefined when the process is gone or /proc has no such file.
	 */
	peakRssKb() {
		try {
			const shell = this.tmux('display-message', '-p', '-t', 'bench', '#{pane_pid}').trim();
			const children = readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
			for (const child of children) {
				const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child}/status`, 'utf8'));
				if (match) return Number(match[1]);
			}
		} catch {
			// No tmux server, or the process ended between the reads.
		}

		return undefined;
	}

	/** Ends the terminal, and leaves what it received in the capture file (kept with --keep). */
	kill() {
		spawnSync('tmux', ['-L', this.socket, 'kill-server'], {stdio: 'ignore'});
		this.#stream.destroy();
		writeFileSync(this.capture, this.output());
	}
}
