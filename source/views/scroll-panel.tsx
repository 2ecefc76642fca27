import {Box} from 'ink';
import type {InspectorLine} from '../view-model/lines/inspector-lines.js';
import {Line} from './parts/line.js';
import {palette} from './palette.js';

/** How each tone of a line looks (view-model/lines/inspector-lines.ts names them). */
export const tones = {
	heading: {bold: true, color: palette.accent},
	label: {color: undefined},
	error: {color: palette.error},
	dim: {dimColor: true},
	removed: {color: palette.error},
	added: {color: palette.success},
} as const;

/** A titled window of pre-wrapped lines, scrolled to `scroll`. */
export function ScrollPanel({
	title,
	lines,
	scroll,
	height,
	width,
	hint,
}: {
	title: string;
	lines: readonly InspectorLine[];
	scroll: number;
	height: number;
	width: number;
	hint: string;
}) {
	const bodyHeight = Math.max(1, height - 2);
	// A list still being laid out (or made again narrower) may be shorter than where it was scrolled to: its end shows.
	const top = Math.max(0, Math.min(scroll, lines.length - bodyHeight));
	const visible = lines.slice(top, top + bodyHeight);
	const end = Math.min(lines.length, top + bodyHeight);
	return (
		<Box flexDirection="column" height={height} width={width}>
			<Box width={width}>
				<Line width={width} inverse>
					{` ${title} `}
				</Line>
			</Box>
			{/* Lines are cut to the width already: clipping sideways too would make Ink re-slice each one every frame. */}
			<Box flexDirection="column" height={bodyHeight} overflowY="hidden">
				{visible.map((line, index) => (
					<Line key={scroll + index} width={width} {...(line.tone === undefined ? {} : tones[line.tone])}>
						{line.text === '' ? ' ' : line.text}
					</Line>
				))}
			</Box>
			<Line width={width} color={palette.muted}>
				{lines.length === 0 ? '' : `${top + 1}–${end} of ${lines.length}`} · {hint}
			</Line>
		</Box>
	);
}
