import {Text} from 'ink';
import {sanitizeLine} from '../../text/sanitize.js';
import {useModelVersion, useViewEnv} from '../contexts.js';
import {Line} from './line.js';
import {skillGlyph} from '../../view-model/lines/skills-lines.js';
import {palette} from '../palette.js';

/** A skill's state: connecting, connected, gone. */
const skillColor = {starting: palette.warning, connected: palette.success, disconnected: palette.muted} as const;

/** Latest state of each skill (MCP server), plus Docker and proxy state when the runtime reports them. */
export function SkillsBar({width}: {width: number}) {
	const {model} = useViewEnv();
	useModelVersion();
	const skills = [...model.skills.values()];
	return (
		<Line width={width}>
			<Text color={palette.muted}>skills </Text>
			{skills.map(skill => (
				<Text key={skill.skillName}>
					<Text color={skillColor[skill.state]}>{skillGlyph[skill.state]}</Text> {sanitizeLine(skill.skillName)}
					<Text color={palette.muted}>
						{skill.state === 'connected' && skill.connectMs !== undefined
							? ` ${Math.round(skill.connectMs)}ms`
							: skill.state === 'connected'
								? ''
								: ` ${skill.state}`}
					</Text>
					{skill.stderrCount > 0 ? <Text color={palette.warning}> ⚠{skill.stderrCount}</Text> : null}
					{'  '}
				</Text>
			))}
			{/* ⚠N asks what was written: say where to read it, next to it, where a full bar does not cut it. */}
			{skills.some(skill => skill.stderrCount > 0) ? <Text color={palette.muted}>S: details{'  '}</Text> : null}
			{[...model.docker.values()].map(docker => (
				<Text key={`docker:${docker.service}`} color={palette.muted}>
					🐳 {sanitizeLine(docker.service)} {sanitizeLine(docker.status ?? docker.stage ?? '')}
					{docker.progress === undefined ? '' : ` ${Math.round(docker.progress)}%`}
					{'  '}
				</Text>
			))}
			{model.proxy.allowed + model.proxy.blocked > 0 ? (
				<Text color={model.proxy.blocked > 0 ? palette.warning : palette.muted}>
					proxy {model.proxy.allowed} allowed / {model.proxy.blocked} blocked
					{model.proxy.last?.action === 'blocked' ? ` (last: ${sanitizeLine(model.proxy.last.domain)})` : ''}
				</Text>
			) : null}
		</Line>
	);
}
