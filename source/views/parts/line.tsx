import {Text, Transform} from 'ink';
import React from 'react';
import {fitStyledLine} from '../../text/fit-styled.js';

type TextStyle = Omit<React.ComponentProps<typeof Text>, 'wrap' | 'children'>;

/**
 * One line of text cut to `width` columns by perscope rather than by Ink: Ink's own cut lets a wide
 * character at the edge stick out a column, which wraps the line and pushes the screen down. The
 * children are measured with their colours already applied, so nested styled text is cut as a whole.
 */
export function Line({width, children, ...style}: TextStyle & {width: number; children?: React.ReactNode}) {
	return (
		<Text wrap="truncate-end" {...style}>
			<Transform transform={line => fitStyledLine(line, width)}>{children}</Transform>
		</Text>
	);
}
