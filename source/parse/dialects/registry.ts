import type {Dialect} from '../../model/events.js';
import {ampDialect} from './amp/index.js';
import {claudeCodeDialect} from './claude-code/index.js';
import {codexDialect} from './codex/dialect.js';
import {geminiDialect} from './gemini/dialect.js';
import {opencodeDialect} from './opencode/dialect.js';
import type {StreamDialect} from './stream-dialect.js';

/*
 * The one place that names the dialects perscope reads. Perstack, drover and the strategy daemon are read line by
 * line (normalise.ts); the dialects below are read per stream (stream-dialect.ts), each by the folder of its own.
 * A stream's dialect is told from its first line that one of them recognises, asked in this order (a dialect
 * whose lines look like another's goes before it); `--dialect NAME` reads every line as NAME's instead.
 */

export const streamDialects: readonly StreamDialect[] = [
	// Amp's lines are Claude Code's, told apart by their session ids: asked first.
	ampDialect,
	claudeCodeDialect,
	codexDialect,
	geminiDialect,
	opencodeDialect,
];

/** The dialects read line by line, in normalise.ts. */
const lineDialects: readonly Dialect[] = ['perstack', 'drover', 'daemon'];

/** What `--dialect` takes. */
export const forcibleDialects: readonly Dialect[] = [lineDialects[0]!, ...streamDialects.map(dialect => dialect.name), ...lineDialects.slice(1)];
