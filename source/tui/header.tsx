import {Box, Text} from 'ink';
import React from 'react';
import type {Job, Model} from '../model/state.js';
import {endedWhileWaiting, isLive, jobTotals, shownStatus} from '../query/tree.js';
import {isLoading} from '../input/source-state.js';
import {formatCount, formatDuration} from '../present/format.js';
import {sanitizeLine} from '../present/sanitize.js';
import {useEffect, useRef} from 'react';
import {describeFilter, isEmptyFilter} from '../query/filter.js';
import {maxStepsNote} from '../query/resume-command.js';
import {useModelVersion, useUiState, useViewEnv} from './contexts.js';
import {createHiddenCounter} from './find.js';
import {endedWhileWaitingLook, statusLook} from '../present/status.js';
import {jobCost} from '../query/cost.js';
import {builtinPrices} from '../query/prices.js';
import {formatCost} from '../present/cost.js';

/**
 * The spinner turns with the clock rather than its own timer: a timer of its own would redraw the whole
 * screen (Ink lays out and writes every frame in full) on top of the frames events already cause.
 */
const spinnerFrames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const spinnerFrameMs = 200;

export function spinnerGlyph(now: number): string {
	return spinnerFrames[Math.floor(now / spinnerFrameMs) % spinnerFrames.length]!;
}

/** The job the header talks about: the one that saw an event last. */
export function currentJob(model: Model): Job | undefined {
	let current: Job | undefined;
	for (const job of model.jobs.values()) {
		if (job.runIds.length === 0) continue;
		if (!current || (job.lastEventAt ?? 0) >= (current.lastEventAt ?? 0)) current = job;
	}

	return current;
}

/**
 * Two lines: where events come from and how the job stands; then the counts (events, rate, steps,
 * tokens, bad lines).
 */
export function Header({width}: {width: number}) {
	const env = useViewEnv();
	const {model, store, sourceLabel, sources} = env;
	useModelVersion();
	const reading = sources.some(source => source.live);
	const job = currentJob(model);
	const totals = job ? jobTotals(model, job) : undefined;
	const status = totals?.coordinator ? shownStatus(totals.coordinator) : 'init';
	const look = totals?.coordinator && endedWhileWaiting(model, totals.coordinator) ? endedWhileWaitingLook : statusLook[status];
	const live = reading && isLive(status);
	// A live run is timed by the clock; a replayed or saved one by its own timestamps (which may be old).
	const now = Date.now();
	const recent = totals?.endedAt !== undefined && now - totals.endedAt < 5 * 60_000;
	const span = totals?.startedAt === undefined ? undefined : (live && recent ? now : (totals.endedAt ?? totals.startedAt)) - totals.startedAt;
	const exit = sources.find(source => (source.exitCode ?? source.signal ?? undefined) !== undefined);
	const ui = useUiState();
	const hiddenFor = useRef(createHiddenCounter()).current;
	const hidden = hiddenFor(model, ui.filter);
	const maxNote = job ? maxStepsNote(model, job) : undefined;
	const cost = job ? formatCost(jobCost(model, job, env.prices ?? builtinPrices)) : undefined;
	// With no events coming, a live run still needs the spinner and the clock to move: ask for a frame now
	// and then. Frames that events cause already move them, so this adds none while events stream.
	useEffect(() => {
		if (!live) return;
		const timer = setInterval(() => store.markChanged(), spinnerFrameMs);
		return () => clearInterval(timer);
	}, [live, store]);
	return (
		<Box flexDirection="column" width={width}>
			<Text wrap="truncate-end">
				<Text bold color="cyan">
					perscope
				</Text>
				<Text color="gray"> · </Text>
				{sanitizeLine(sourceLabel)}
				{sources.map(source => (source.pid !== undefined && source.live ? ` (pid ${source.pid})` : ''))}
				{exit ? <Text color={exit.exitCode === 0 ? 'green' : 'red'}>{` exited ${exit.signal ? `by ${exit.signal}` : String(exit.exitCode ?? '')}`}</Text> : null}
				{env.replay ? (
					<Text color="magenta">{!reading ? ' · replayed' : env.replay.paused ? ' · ⏸ replay paused (space)' : ` · ▶ replay ${env.replay.speed}× (+/-)`}</Text>
				) : (
					<Text color="gray">{reading ? ' · live' : ' · ended'}</Text>
				)}
				{job ? <Text color="gray"> · job {sanitizeLine(job.jobId).slice(0, 12)}</Text> : null}
				<Text color="gray"> · </Text>
				{live ? (
					<Text color="yellow">{spinnerGlyph(now)}</Text>
				) : (
					<Text color={look.color}>{look.glyph}</Text>
				)}
				<Text color={look.color}> {job ? look.word : sources.some(isLoading) ? 'reading' : 'waiting for events'}</Text>
				{maxNote ? <Text color="yellow"> · {sanitizeLine(maxNote)}</Text> : null}
				<Text color="gray"> · {formatDuration(span)}</Text>
			</Text>
			<Text wrap="truncate-end" color="gray">
				{formatCount(model.events)} events{reading ? ` · ${formatCount(Math.round(store.eventsPerSecond))}/s` : ''} · {totals?.steps ?? 0} steps · tokens{' '}
				{formatCount(totals?.usage.inputTokens ?? 0)} in / {formatCount(totals?.usage.outputTokens ?? 0)} out / {formatCount(totals?.usage.cachedInputTokens ?? 0)} cached
				{cost === undefined ? null : <Text> · {cost}</Text>}
				{model.diagnosticCount > 0 ? <Text color="red"> · ⚠ {model.diagnosticCount} bad lines (d)</Text> : null}
				{model.unknownEvents.size > 0 ? <Text> · {[...model.unknownEvents.values()].reduce((a, b) => a + b, 0)} unknown</Text> : null}
				{isEmptyFilter(ui.filter) ? null : (
					<Text color="magenta">
						{' '}
						· filter {describeFilter(ui.filter)} ({hidden} hidden)
					</Text>
				)}
			</Text>
		</Box>
	);
}
