import {execFileSync, spawnSync} from 'node:child_process';
import {existsSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach} from 'vitest';
import {TmuxControl} from './tmux-control.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

let counter = 0;

/**
 * A real pseudo-terminal: tmux runs the command, `send-keys` types, `capture-pane` reads the screen.
 * Each session has its own server socket, so tests can run side by side.
 */
export class TmuxSession {
	readonly socket: string;
	readonly name = 'e2e';

	private constructor(socket: string) {
		this.socket = socket;
	}

	/**
	 * Starts `command` (a shell command line, run from the repo root) in a terminal of the given size.
	 * When it exits, the shell prints `__EXIT=<code>__` and stays, so the restored screen can be read.
	 */
	static start(command: string, options: {width?: number; height?: number; env?: Record<string, string>} = {}): TmuxSession {
		const socket = `perscope-e2e-${process.pid}-${++counter}`;
		const session = new TmuxSession(socket);
		const env = Object.entries(options.env ?? {})
			.map(([key, value]) => `${key}=${shellQuote(value)} `)
			.join('');
		const script = `cd ${shellQuote(repoRoot)} && printf 'BEFORE-PERSCOPE\\n' && ${env}${command}; echo "__EXIT=$?__"; sleep 600`;
		// The server starts here, so this one command is a `tmux` process; the others go through a control client.
		execFileSync('tmux', [
			'-L',
			socket,
			'new-session',
			'-d',
			'-s',
			session.name,
			'-x',
			String(options.width ?? 100),
			'-y',
			String(options.height ?? 30),
			'sh',
			'-c',
			script,
		]);
		return session;
	}

	/**
	 * Runs a tmux command in this session's server and returns what it prints. The commands a wait repeats go
	 * through the control client, whose answers are whole lines as theirs are; the rest (`show-buffer` prints no
	 * newline at its end, which a control client's answer cannot tell) are a `tmux` process each, as rare as they are.
	 */
	tmux(...args: string[]): string {
		const repeated = args[0] === 'capture-pane' || args[0] === 'send-keys';
		if (!repeated || !TmuxControl.canQuote(args)) return execFileSync('tmux', ['-L', this.socket, ...args], {encoding: 'utf8'});
		this.control ??= new TmuxControl(this.socket, this.name);
		return this.control.run(args);
	}

	private control: TmuxControl | undefined;

	/** Types keys: tmux key names (`Enter`, `Escape`, `Up`, `C-c`) or literal text. */
	keys(...keys: string[]): void {
		this.tmux('send-keys', '-t', this.name, ...keys);
	}

	screen(): string {
		return this.tmux('capture-pane', '-p', '-t', this.name);
	}

	/** The screen with its escape sequences (colours, inverse video). */
	screenWithStyles(): string {
		return this.tmux('capture-pane', '-p', '-e', '-t', this.name);
	}

	resize(width: number, height: number): void {
		this.tmux('resize-window', '-t', this.name, '-x', String(width), '-y', String(height));
	}

	/** Waits until the screen satisfies `check`; fails with the last screen, never sleeps a guessed time. */
	async waitFor(check: string | RegExp | ((screen: string) => boolean), timeoutMs = 8000): Promise<string> {
		const test =
			typeof check === 'string' ? (screen: string) => screen.includes(check) : check instanceof RegExp ? (screen: string) => check.test(screen) : check;
		const deadline = Date.now() + timeoutMs;
		let screen = '';
		for (;;) {
			screen = this.screen();
			if (test(screen)) return screen;
			if (Date.now() > deadline) throw new Error(`screen never matched ${String(check)}; last screen:\n${screen}`);
			await new Promise(resolve => setTimeout(resolve, 50));
		}
	}

	/**
	 * `waitFor`, and then until two looks in a row see the same screen: what tmux shows while a frame is still being
	 * written has the end of a line missing (a timeline row once lacked its tokens, the last thing on the line).
	 */
	async waitForSettled(check: string | RegExp | ((screen: string) => boolean), timeoutMs = 8000): Promise<string> {
		const deadline = Date.now() + timeoutMs;
		let screen = await this.waitFor(check, timeoutMs);
		for (;;) {
			await new Promise(resolve => setTimeout(resolve, 50));
			const now = this.screen();
			if (now === screen) return screen;
			if (Date.now() > deadline) throw new Error(`the screen never settled; last screen:\n${now}`);
			screen = await this.waitFor(check, Math.max(0, deadline - Date.now()));
		}
	}

	/**
	 * Types `keys` and waits until the screen is no longer what it was: the screen a key leads to, without
	 * guessing how long drawing it takes. Fails, with the screen, when nothing changes.
	 */
	async keysThenChange(...keys: string[]): Promise<string> {
		const before = this.screen();
		this.keys(...keys);
		return this.waitFor(screen => screen !== before, 3000);
	}

	/**
	 * Keeps every byte the program writes to the terminal from now on (tmux's pipe-pane), for what a screen
	 * cannot show: that it was left and entered again, however briefly. Returns what has been written so far.
	 */
	recordOutput(): () => string {
		const path = join(tmpdir(), `${this.socket}.out`);
		rmSync(path, {force: true});
		this.tmux('pipe-pane', '-t', this.name, `cat >> ${shellQuote(path)}`);
		this.recordings.push(path);
		return () => (existsSync(path) ? readFileSync(path, 'latin1') : '');
	}

	private readonly recordings: string[] = [];

	/** Waits for the command to end and returns its exit code. */
	async exitCode(timeoutMs = 8000): Promise<number> {
		const screen = await this.waitFor(/__EXIT=\d+__/, timeoutMs);
		return Number(/__EXIT=(\d+)__/.exec(screen)?.[1]);
	}

	kill(): void {
		this.control?.close();
		this.control = undefined;
		spawnSync('tmux', ['-L', this.socket, 'kill-server']);
		for (const path of this.recordings) rmSync(path, {force: true});
	}
}

/**
 * The frames the viewer drew into a recording (`recordOutput`), each as its plain text, lines joined by `\n`: Ink
 * writes each whole frame between the begin and end of a synchronised update. A state that lasts one frame is
 * in them however fast the machine is, where a screen read every few milliseconds may fall between two frames.
 * A frame not ended yet is left out.
 */
export function framesOf(written: string): string[] {
	const text = Buffer.from(written, 'latin1').toString('utf8');
	const frames: string[] = [];
	for (const part of text.split('\u001B[?2026h').slice(1)) {
		const end = part.indexOf('\u001B[?2026l');
		if (end === -1) continue;
		frames.push(
			part
				.slice(0, end)
				.replaceAll(/\u001B\[[0-9;?]*[A-Za-z]/g, '')
				.replaceAll('\r\n', '\n'),
		);
	}

	return frames;
}

/** Waits until a frame in the recording satisfies `check`, from its `from`th frame on; returns it and its number. */
export async function waitForFrame(
	written: () => string,
	check: (frame: string) => boolean,
	timeoutMs = 8000,
	from = 0,
): Promise<{frame: string; index: number}> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const frames = framesOf(written());
		const index = frames.findIndex((frame, at) => at >= from && check(frame));
		if (index !== -1) return {frame: frames[index]!, index};
		if (Date.now() > deadline) throw new Error(`no frame matched ${String(check)} in ${frames.length} frames; last frame:\n${frames.at(-1) ?? ''}`);
		await new Promise(resolve => setTimeout(resolve, 50));
	}
}

export function shellQuote(text: string): string {
	return `'${text.replaceAll("'", "'\\''")}'`;
}

export function hasTmux(): boolean {
	return spawnSync('tmux', ['-V']).status === 0;
}

/** The selected row: the line drawn in inverse video, marked `›` in the gutter. */
export function selectedLine(styledScreen: string): string | undefined {
	const line = styledScreen.split('\n').find(candidate => candidate.includes('\u001B[7m'));
	const plain = line?.replace(/\u001B\[[0-9;]*m/g, '');
	return plain?.startsWith('›') ? plain : undefined;
}

/** Where the selection is on the screen: the inverse-video line's index, and the lines without their styles. */
function selection(styledScreen: string): {index: number; lines: string[]} {
	const styled = styledScreen.split('\n');
	return {index: styled.findIndex(line => line.includes('\u001B[7m')), lines: styled.map(line => line.replace(/\u001B\[[0-9;]*m/g, ''))};
}

/**
 * Whether the selection went up a row since `before`: it is drawn on another line, or on the same one with the
 * row it left drawn below it (the tree scrolled). A live row's text may change meanwhile, so the text of the
 * selected line alone says nothing.
 */
function movedUp(before: {index: number; lines: string[]}, now: {index: number; lines: string[]}): boolean {
	if (now.index !== before.index) return true;
	const left = before.lines[before.index]?.slice(1).trimEnd();
	return left !== undefined && now.lines[now.index + 1]?.slice(1).trimEnd() === left;
}

/** Moves the selection up a row at a time until the selected row contains `text`. */
export async function selectUp(tty: TmuxSession, text: string): Promise<void> {
	for (let step = 0; step < 40; step++) {
		const styled = tty.screenWithStyles();
		if (selectedLine(styled)?.includes(text)) return;
		const before = selection(styled);
		tty.keys('k');
		// The next key only once this one has moved the selection: a key typed before would skip a row.
		await tty.waitFor(() => movedUp(before, selection(tty.screenWithStyles())), 3000);
	}

	throw new Error(`no row containing ${text} above the selection; last screen:\n${tty.screen()}`);
}

/**
 * A `start` for one test file: each session it starts is killed after the test that started it, whatever
 * the test's outcome, so a failing test leaves no tmux server behind.
 */
export function sessionsKilledAfterEach(): (command: string, options?: Parameters<typeof TmuxSession.start>[1]) => TmuxSession {
	const sessions: TmuxSession[] = [];
	afterEach(() => {
		for (const session of sessions.splice(0)) session.kill();
	});
	return (command, options) => {
		const session = TmuxSession.start(command, options);
		sessions.push(session);
		return session;
	};
}
