import {Box} from 'ink';
import {formatCount} from '../../text/format.js';
import {isLoading, type SourceState} from '../../input/source-state.js';
import {sanitizeLine} from '../../text/sanitize.js';
import {useModelVersion, useViewEnv} from '../contexts.js';
import {Line} from './line.js';
import {palette} from '../palette.js';

/** Child stderr lines shown under the tree; `s` opens all of them. */
const stderrStripLines = 2;

function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
	if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
	return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

function progressBar(fraction: number, width: number): string {
	const cells = Math.max(0, Math.min(width, Math.round(fraction * width)));
	return `${'█'.repeat(cells)}${'░'.repeat(width - cells)}`;
}

/** Lines the strip needs for these sources, so the layout can give the tree the rest. */
export function sourceStripHeight(sources: SourceState[]): number {
	let lines = 0;
	if (sources.some(source => isLoading(source) || source.following || source.waiting)) lines++;
	const stderr = sources.reduce((count, source) => count + Math.min(stderrStripLines, source.stderr.length), 0);
	return lines + Math.min(stderrStripLines, stderr);
}

/**
 * Where the events stand: a progress bar while a file loads, what is being followed, and the last lines
 * a child command wrote to stderr (never written over the screen itself).
 */
export function SourceStrip({width}: {width: number}) {
	const {sources, store} = useViewEnv();
	useModelVersion();
	const load = sources.find(isLoading);
	const follow = sources.find(source => source.following || source.waiting);
	const stderr = sources.flatMap(source => source.stderr.slice(-stderrStripLines).map(line => ({label: source.label, line}))).slice(-stderrStripLines);
	return (
		<Box flexDirection="column" width={width}>
			{load && load.bytesTotal !== undefined ? (
				<Line width={width} color={palette.accent}>
					loading {sanitizeLine(load.label)} {progressBar(load.bytesRead / load.bytesTotal, 20)} {Math.floor((100 * load.bytesRead) / load.bytesTotal)}% ·{' '}
					{formatBytes(load.bytesRead)} / {formatBytes(load.bytesTotal)} · {formatCount(Math.round(store.eventsPerSecond))} events/s
				</Line>
			) : follow ? (
				<Line width={width} color={palette.muted}>
					{follow.waiting
						? `waiting for ${sanitizeLine(follow.label)} to appear…`
						: `following ${sanitizeLine(follow.label)} (new lines appear as they are written)`}
				</Line>
			) : null}
			{stderr.map((entry, index) => (
				<Line key={index} width={width} color={palette.warning} dimColor>
					stderr │ {sanitizeLine(entry.line)}
				</Line>
			))}
		</Box>
	);
}
