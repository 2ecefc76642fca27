import {Text} from 'ink';
import React from 'react';
import {sanitizeLine} from '../../present/sanitize.js';
import {useModelVersion, useViewEnv} from '../contexts.js';
import {Line} from './line.js';
import {skillGlyph} from '../../view-model/lines/skills-lines.js';

const skillColor = {starting: 'yellow', connected: 'green', disconnected: 'gray'} as const;

/** Latest state of each skill (MCP server), plus Docker and proxy state when the runtime reports them. */
export function SkillsBar({width}: {width: number}) {
	const {model} = useViewEnv();
	useModelVersion();
	const skills = [...model.skills.values()];
	return (
		<Line width={width}>
			<Text color="gray">skills </Text>
			{skills.map(skill => (
				<Text key={skill.skillName}>
					<Text color={skillColor[skill.state]}>{skillGlyph[skill.state]}</Text> {sanitizeLine(skill.skillName)}
					<Text color="gray">{skill.state === 'connected' && skill.connectMs !== undefined ? ` ${Math.round(skill.connectMs)}ms` : skill.state === 'connected' ? '' : ` ${skill.state}`}</Text>
					{skill.stderrCount > 0 ? <Text color="yellow"> ⚠{skill.stderrCount}</Text> : null}
					{'  '}
				</Text>
			))}
			{/* ⚠N asks what was written: say where to read it, next to it, where a full bar does not cut it. */}
			{skills.some(skill => skill.stderrCount > 0) ? <Text color="gray">S: details{'  '}</Text> : null}
			{[...model.docker.values()].map(docker => (
				<Text key={`docker:${docker.service}`} color="gray">
					🐳 {sanitizeLine(docker.service)} {sanitizeLine(docker.status ?? docker.stage ?? '')}
					{docker.progress === undefined ? '' : ` ${Math.round(docker.progress)}%`}
					{'  '}
				</Text>
			))}
			{model.proxy.allowed + model.proxy.blocked > 0 ? (
				<Text color={model.proxy.blocked > 0 ? 'yellow' : 'gray'}>
					proxy {model.proxy.allowed} allowed / {model.proxy.blocked} blocked
					{model.proxy.last?.action === 'blocked' ? ` (last: ${sanitizeLine(model.proxy.last.domain)})` : ''}
				</Text>
			) : null}
		</Line>
	);
}
