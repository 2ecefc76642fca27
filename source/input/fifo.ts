import {closeSync, constants, createReadStream, openSync, type ReadStream} from 'node:fs';

/**
 * A stream of a FIFO or a device (`<(cmd)`, a named pipe), that ends promptly when `signal` aborts, even
 * while nobody has opened the FIFO for writing. Opening a FIFO for reading blocks until a writer appears, in
 * a thread of libuv's pool that nothing can cancel: the stream cannot be destroyed until the open returns,
 * and the pending open keeps the process alive, so SIGTERM or Ctrl-C would be ignored until a writer came.
 * On abort, a FIFO still waiting for its writer is therefore opened for writing and closed at once: the
 * pending open returns, the read sees the end of the input, and the stream ends as an aborted one does.
 * `fifo`: the plan saw a FIFO there (a device or a socket needs no release).
 */
export function readFifo(path: string, signal: AbortSignal, fifo: boolean): ReadStream {
	const stream = createReadStream(path, {highWaterMark: 1024 * 1024});
	const release = () => {
		if (!stream.pending || !fifo) return;
		try {
			// Non-blocking: it succeeds at once while a reader waits, and fails (ENXIO) when none does.
			closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
		} catch {
			// Nobody waits on it any more (the open returned meanwhile), or it is gone: nothing to release.
		}
	};

	if (signal.aborted) release();
	else signal.addEventListener('abort', release, {once: true});
	stream.once('close', () => signal.removeEventListener('abort', release));
	return stream;
}
