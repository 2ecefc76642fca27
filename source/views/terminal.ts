import {openSync} from 'node:fs';
import tty from 'node:tty';

/**
 * The keyboard for the interactive viewer. When events arrive on stdin (`perstack run … | perscope`),
 * keys must come from the controlling terminal instead, so /dev/tty is opened directly.
 * Returns undefined when there is no terminal at all.
 */
export function openKeyboard(stdinCarriesEvents: boolean): {stream: tty.ReadStream; close: () => void} | undefined {
	if (!stdinCarriesEvents && process.stdin.isTTY) return {stream: process.stdin, close: () => undefined};
	try {
		const fd = openSync('/dev/tty', 'r');
		const stream = new tty.ReadStream(fd);
		return {
			stream,
			close: () => {
				if (stream.isTTY) stream.setRawMode(false);
				stream.destroy();
			},
		};
	} catch {
		return undefined;
	}
}

const enterAlternateScreen = '\u001B[?1049h\u001B[H';
const leaveAlternateScreen = '\u001B[?1049l';
const showCursor = '\u001B[?25h';
const hideCursor = '\u001B[?25l';

/**
 * The viewer owns the whole screen while it runs and gives the user's scrollback back untouched.
 * Ink 6 has no alternate-screen option, so we switch ourselves; the returned function is safe to call
 * more than once and also runs on process exit, whatever path the exit takes.
 */
export function enterFullScreen(stdout: NodeJS.WriteStream): () => void {
	stdout.write(enterAlternateScreen);
	let restored = false;
	const restore = () => {
		if (restored) return;
		restored = true;
		stdout.write(showCursor + leaveAlternateScreen);
	};

	process.once('exit', restore);
	return restore;
}

/**
 * Puts the keyboard back in raw mode. The program upstream of a pipe (`perstack run … | perscope`) shares
 * our terminal as its stdin, and Node restores the terminal's cooked mode when it exits, which would
 * silently turn our keys into echoed text. libuv remembers the mode it last set, so re-setting "raw" is
 * a no-op: switch off and on again to make it reach the terminal.
 */
export function reassertRawMode(stream: tty.ReadStream): void {
	if (!stream.isTTY || !stream.isRaw) return;
	stream.setRawMode(false);
	stream.setRawMode(true);
}

/**
 * Ctrl-Z: stops the process group (the whole pipeline, as a shell's job) the way other full-screen programs
 * do: the shell's screen and the terminal's cooked mode are given back first, and on `fg` (SIGCONT) the
 * alternate screen and raw mode are taken again and `repaint` draws the viewer.
 *
 * A process group with no shell doing job control (orphaned) ignores SIGTSTP: then nothing stops, and the
 * fallback timer (which cannot fire while the process is stopped) brings the screen back.
 */
export function suspendToShell(stdout: NodeJS.WriteStream, keyboard: tty.ReadStream, repaint: () => void): void {
	const wasRaw = keyboard.isTTY && keyboard.isRaw;
	let resumed = false;
	const resume = () => {
		if (resumed) return;
		resumed = true;
		process.off('SIGCONT', resume);
		clearTimeout(fallback);
		stdout.write(enterAlternateScreen + hideCursor);
		if (wasRaw) keyboard.setRawMode(true);
		repaint();
	};

	stdout.write(showCursor + leaveAlternateScreen);
	if (wasRaw) keyboard.setRawMode(false);
	process.on('SIGCONT', resume);
	const fallback = setTimeout(resume, 300);
	process.kill(0, 'SIGTSTP');
}

/**
 * Shows `text` on the terminal's own screen, as plain output the terminal wraps itself: a line longer than the
 * screen stays one line, which a mouse selects and copies whole (the viewer's frames cut lines to the screen).
 * Meanwhile nothing the views write reaches the terminal; the returned function takes the alternate screen back,
 * and the caller then draws the viewer again in full. What was shown stays in the terminal's scrollback.
 */
export function showOnShellScreen(stdout: NodeJS.WriteStream, text: string): () => void {
	const write = stdout.write.bind(stdout);
	const own = Object.getOwnPropertyDescriptor(stdout, 'write');
	write(showCursor + leaveAlternateScreen + text);
	// Ink writes through the stream's `write` on every frame; held back until the viewer comes back, then drawn in full.
	stdout.write = ((_chunk: unknown, encoding?: unknown, callback?: unknown) => {
		const done = typeof encoding === 'function' ? encoding : callback;
		if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
		return true;
	}) as typeof stdout.write;
	let back = false;
	return () => {
		if (back) return;
		back = true;
		if (own) Object.defineProperty(stdout, 'write', own);
		else delete (stdout as {write?: unknown}).write;
		write(enterAlternateScreen + hideCursor);
	};
}

/** OSC 52: asks the terminal to put `text` on the system clipboard (terminals that do not allow it ignore it). */
export function clipboardSequence(text: string): string {
	return `\u001B]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;
}
