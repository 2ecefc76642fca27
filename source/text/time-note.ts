import type {Dialect} from '../model/events.js';

/*
 * What a run's times are, where its stream carries none: Codex prints no time on any line, so its events hold the
 * time perscope received them (a live stream: stdin, a command, --follow) or none at all (a file). The inspector
 * says so beside the time it shows.
 */

/** The inspector's `time` field of an event of this dialect, or undefined to show the time as it is. */
export function timeField(dialect: Dialect | undefined, timestamp: number | undefined): string | undefined {
	const iso = timestamp === undefined ? undefined : new Date(timestamp).toISOString();
	if (dialect !== 'codex') return iso;
	return iso === undefined ? 'none (Codex prints no times; a live stream is stamped as it arrives)' : `${iso} (when it arrived: Codex prints no times)`;
}
