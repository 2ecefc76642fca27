import {watch, type FSWatcher} from 'node:fs';
import {basename, dirname} from 'node:path';

/**
 * What a following loop sleeps on: a poll interval, cut short by a file-system event or a stop. A
 * notification that arrives while nobody waits is kept, so a change between two waits is never missed.
 */
export class Wakeup {
	#pending = false;
	#wake: (() => void) | undefined;

	notify(): void {
		if (this.#wake) this.#wake();
		else this.#pending = true;
	}

	wait(ms: number, signal: AbortSignal): Promise<void> {
		if (this.#pending || signal.aborted) {
			this.#pending = false;
			return Promise.resolve();
		}

		return new Promise(resolve => {
			const wake = () => {
				clearTimeout(timer);
				signal.removeEventListener('abort', wake);
				this.#wake = undefined;
				resolve();
			};

			const timer = setTimeout(wake, ms);
			signal.addEventListener('abort', wake, {once: true});
			this.#wake = wake;
		});
	}
}

/**
 * Notifies on changes to `path`. The directory is watched rather than the file, because a watch on the
 * file follows its inode and goes quiet once the file is rotated away. Watching is only a hint that
 * shortens the wait: it can fail (inotify limits, a directory that does not exist yet) or miss events
 * on network file systems, so callers poll as well.
 */
export function watchPath(path: string, wakeup: Wakeup): () => void {
	const name = basename(path);
	let watcher: FSWatcher | undefined;
	try {
		watcher = watch(dirname(path), {persistent: false}, (_event, filename) => {
			if (filename === null || filename === name) wakeup.notify();
		});
		watcher.on('error', () => watcher?.close());
	} catch {
		return () => undefined;
	}

	return () => watcher?.close();
}
