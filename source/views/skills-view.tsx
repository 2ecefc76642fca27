import {useMemo} from 'react';
import {useModelVersion, useUiDispatch, useViewEnv} from './contexts.js';
import {priorities, useCommands} from './keypress.js';
import {scrollCommand} from './overlays.js';
import {ScrollPanel} from './scroll-panel.js';
import {maxScroll} from '../view-model/scroll.js';
import {skillLines} from '../view-model/lines/skills-lines.js';

/** `S`: each skill (MCP server), the states it went through with their times, and its stderr lines. */
export function SkillsOverlay({scroll, height, width}: {scroll: number; height: number; width: number}) {
	const {model} = useViewEnv();
	const version = useModelVersion();
	// Skills change in place as events come: the version says when to draw them again.
	const lines = useMemo(() => skillLines(model, width), [model, width, version]);
	const dispatch = useUiDispatch();
	const max = maxScroll(lines.length, height);
	useCommands(priorities.overlay, command => scrollCommand(command, max, height, dispatch));
	return <ScrollPanel title={`Skills (${model.skills.size})`} lines={lines} scroll={Math.min(scroll, max)} height={height} width={width} hint="esc close" />;
}
