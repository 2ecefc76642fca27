import type {LineSplitter} from '../parse/line-splitter.js';

/**
 * Where an input delivers what it reads: a splitter per source (file, job event file, stream) that cuts the
 * bytes into lines, and a way to report a source that failed as a whole. The loader (load/ingest.ts) is one.
 */
export type LineSink = {
	splitter(source: string): LineSplitter;
	sourceProblem(source: string, reason: string): void;
};
