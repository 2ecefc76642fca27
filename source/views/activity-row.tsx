import {Box, Text} from 'ink';
import React from 'react';
import type {Activity} from '../model/state.js';
import {describeActivity} from '../text/describe-activity.js';

const colors: Partial<Record<Activity['type'], string>> = {
	query: 'cyan',
	complete: 'green',
	error: 'red',
	retry: 'yellow',
	delegate: 'magenta',
	delegationComplete: 'magenta',
	interactiveTool: 'cyan',
};

/** One activity: icon, verb, what it acted on, and a tool error in red. */
export function ActivityRow({activity, depth, selected, width}: {activity: Activity; depth: number; selected: boolean; width: number}) {
	const line = describeActivity(activity);
	const showError = line.error !== undefined && activity.type !== 'error';
	return (
		<Box width={width}>
			<Text wrap="truncate-end" inverse={selected}>
				{' '.repeat(depth * 2 + 2)}
				{line.icon} <Text color={colors[activity.type]}>{line.verb}</Text>
				{line.detail === '' ? '' : ' '}
				<Text color={activity.type === 'error' ? 'red' : undefined}>{line.detail}</Text>
				{showError ? <Text color="red"> ✗ {line.error}</Text> : null}
				{line.pending ? <Text color="gray"> …</Text> : null}
			</Text>
		</Box>
	);
}

/** A line of live streaming text under a running pane: reasoning dim, the result as it is written. */
export function LiveRow({text, depth, channel, width}: {text: string; depth: number; channel: 'reasoning' | 'result'; width: number}) {
	return (
		<Box width={width}>
			<Text wrap="truncate-end" dimColor={channel === 'reasoning'} italic={channel === 'reasoning'}>
				{' '.repeat(depth * 2 + 4)}
				{channel === 'reasoning' ? '┆ ' : '│ '}
				{text}
			</Text>
		</Box>
	);
}
