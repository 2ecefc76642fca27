import type {Model, SkillState} from '../../model/state.js';
import {formatDateTime, formatDuration, plural} from '../../text/format.js';
import {sanitizeLine} from '../../text/sanitize.js';
import {wrapToWidth} from '../../text/wrap.js';
import type {InspectorLine} from './inspector-lines.js';
import {stderrDisplayLines} from './stderr-lines.js';

export const skillGlyph = {starting: '◌', connected: '●', disconnected: '○'} as const;

/**
 * Each skill (MCP server) as the skills overlay shows it: what it is, the states it went through with when
 * (and how long after the one before), and what it wrote to stderr. Event text is made safe here.
 */
export function skillLines(model: Model, width: number): InspectorLine[] {
	const lines: InspectorLine[] = [];
	for (const skill of model.skills.values()) {
		if (lines.length > 0) lines.push({text: ''});
		lines.push(...skillSection(skill, width));
	}

	if (lines.length === 0) lines.push({text: 'No skill has reported yet (a job directory has none: the runtime does not persist them).', tone: 'dim'});
	return lines;
}

function skillSection(skill: SkillState, width: number): InspectorLine[] {
	const textWidth = Math.max(10, width - 1);
	const lines: InspectorLine[] = [{text: sanitizeLine(`${skillGlyph[skill.state]} ${skill.skillName}  ${skill.state}`), tone: 'heading'}];
	const detail = (label: string, value: string | undefined) => {
		if (value === undefined || value === '') return;
		for (const [index, piece] of wrapToWidth(sanitizeLine(`${label}: ${value}`), textWidth - 2).entries())
			lines.push({text: `${index === 0 ? '  ' : '    '}${piece}`});
	};

	const server = [skill.serverName, skill.serverVersion].filter(part => part !== undefined).join(' ');
	detail('server', server);
	detail('command', skill.command === undefined ? undefined : [skill.command, ...(skill.args ?? [])].join(' '));

	const left = skill.transitionCount - skill.transitions.length;
	lines.push({text: `  states${left > 0 ? ` (the last ${skill.transitions.length} of ${skill.transitionCount})` : ''}`, tone: 'label'});
	if (skill.transitions.length === 0) lines.push({text: '    (none reported: only stderr lines came)', tone: 'dim'});
	let previous: number | undefined;
	for (const transition of skill.transitions) {
		const when = transition.at === undefined ? 'at an unknown time' : formatDateTime(transition.at);
		const after = transition.at !== undefined && previous !== undefined ? `  +${formatDuration(transition.at - previous)}` : '';
		const took = transition.connectMs === undefined ? '' : ` in ${formatDuration(transition.connectMs)}`;
		lines.push({text: `    ${when}${after}  ${skillGlyph[transition.state]} ${transition.state}${took}`});
		previous = transition.at ?? previous;
	}

	if (skill.stderrCount === 0) {
		lines.push({text: '  stderr: nothing written', tone: 'dim'});
		return lines;
	}

	const kept = skill.stderrCount > skill.stderr.length ? ` (the last ${skill.stderr.length} kept)` : '';
	lines.push({text: `  stderr: ${plural(skill.stderrCount, 'line')}${kept}`, tone: 'label'});
	for (const text of stderrDisplayLines(skill.stderr, width, '    ')) lines.push({text});
	return lines;
}

/** Whether the skills bar is shown: once a skill (an MCP server), a container or the proxy is reported. */
export function hasStatusBar(model: Model): boolean {
	return model.skills.size > 0 || model.docker.size > 0 || model.proxy.allowed + model.proxy.blocked > 0;
}
