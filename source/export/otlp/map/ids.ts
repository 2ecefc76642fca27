import {createHash} from 'node:crypto';

/*
 * Trace and span ids are hashes of what identifies the thing in the log (job, run, step, tool call), never
 * random: exporting the same log twice gives the same ids, so a backend can tell a re-export from new work.
 */

function digest(parts: readonly string[], bytes: number): string {
	const hash = createHash('sha256');
	// Parts are joined by a NUL, which no id contains, so ('ab', 'c') and ('a', 'bc') differ.
	hash.update(parts.join('\u0000'));
	const hex = hash.digest('hex').slice(0, bytes * 2);
	// An all-zero id is invalid in OTLP; a hash gives one with a chance of 2^-64, but it costs nothing to rule out.
	return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

/** 16 bytes, lowercase hex: one trace per job. */
export function traceIdOf(jobId: string): string {
	return digest(['perscope', 'trace', jobId], 16);
}

/** 8 bytes, lowercase hex. */
export function spanIdOf(...parts: string[]): string {
	return digest(['perscope', 'span', ...parts], 8);
}
