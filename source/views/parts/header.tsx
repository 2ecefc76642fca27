import {Box, Text} from 'ink';
import {runLook} from '../../query/run-look.js';
import type {Model} from '../../model/state.js';
import {atLeast, isLive, runSteps, shownStatus} from '../../query/tree.js';
import {isLoading} from '../../input/source-state.js';
import {formatCount, formatDuration, plural} from '../../text/format.js';
import {shortSourceLabel} from '../../text/source-label.js';
import {sanitizeLine} from '../../text/sanitize.js';
import {useMemo} from 'react';
import {filterText, isEmptyFilter} from '../../query/filter.js';
import {useModelVersion, useUiState, useViewEnv} from '../contexts.js';
import {hiddenCount} from '../../view-model/search/filter-ahead.js';
import {statusLook} from '../../text/status.js';
import {totalCost, type Cost} from '../../query/cost.js';
import {currentJob, shownJobs} from '../../view-model/jobs.js';
import {useSelectionJob} from '../hooks/use-selection-job.js';
import {addUsage, zeroUsage} from '../../model/usage.js';
import type {Usage} from '../../model/events.js';
import {builtinPrices, type PriceTable} from '../../query/prices.js';
import {formatCost} from '../../text/cost.js';
import {Line} from './line.js';
import {shownStart} from '../../view-model/line-window.js';
import {useClock, useLastArrival} from '../hooks/use-clock.js';
import {lastEventNote, spinnerGlyph} from '../../view-model/live-time.js';
import {useJobFigures} from '../hooks/use-job-figures.js';
import {palette, toneColor} from '../palette.js';

/**
 * Two lines: how the job stands and where its events come from; then the counts (events, rate, steps,
 * tokens, cost, bad lines; with several jobs, all of them together).
 */
export function Header({width}: {width: number}) {
	const env = useViewEnv();
	const {model, store, sourceLabel, sources} = env;
	useModelVersion();
	const reading = sources.some(source => source.live);
	const ui = useUiState();
	// With several jobs, the header is about the job the selection is in, and says which; and adds up all of them.
	const jobs = shownJobs(model);
	const several = jobs.length > 1;
	const selectionJob = useSelectionJob(width, several);
	const job = selectionJob ?? currentJob(model);
	const jobLabel = job && several ? `job ${jobs.indexOf(job) + 1}/${jobs.length}` : 'job';
	const prices = env.prices ?? builtinPrices;
	// These walk every run (200,000 in a large fleet): once per model revision, not once per key.
	const {rev} = model;
	const all = useMemo(() => (several ? allJobsTotals(model, prices) : undefined), [model, rev, several, prices]);
	const figures = useJobFigures(model, job, prices);
	const totals = figures?.totals;
	const status = totals?.coordinator ? shownStatus(totals.coordinator) : 'init';
	const coordinator = totals?.coordinator;
	const look = coordinator ? runLook(model, coordinator) : statusLook[status];
	const live = reading && isLive(status);
	// A coordinator waiting for its delegates is not live, but its job is: the clock goes on for it.
	const liveRun = reading && !live && (figures?.anyLive ?? false);
	const running = live || liveRun;
	// With no events coming, a live job still needs its elapsed time and the quiet to move: the clock draws
	// the header once a second then; frames that events cause move them too. Nothing live, no timer.
	const now = useClock(running);
	const lastArrival = useLastArrival(model.events, now);
	const quiet = running && !env.replay?.paused ? lastEventNote(now - lastArrival) : undefined;
	// A live run is timed by the clock; a replayed or saved one by its own timestamps (which may be old).
	const recent = totals?.endedAt !== undefined && now - totals.endedAt < 5 * 60_000;
	// Or what its runtime reported its turns took, where that is longer (`jobDurationMs`): all a job whose events carry no time has.
	const timed = totals?.startedAt === undefined ? undefined : (running && recent ? now : (totals.endedAt ?? totals.startedAt)) - totals.startedAt;
	const span = running && recent ? timed : atLeast(timed, totals?.reportedDurationMs);
	// The latest command's: a continuation the cockpit ran says how the job's last part went.
	const exit = sources.findLast(source => (source.exitCode ?? source.signal ?? undefined) !== undefined);
	const hidden = hiddenCount(model, ui.filter);
	const maxNote = figures?.maxNote;
	const cost = figures ? formatCost(figures.cost) : undefined;
	const events = `${formatCount(model.events)} ${model.events === 1 ? 'event' : 'events'}${reading ? ` · ${formatCount(Math.round(store.eventsPerSecond))}/s` : ''}`;
	// Status, job and time come first: on a narrow screen the source's name is what gets cut.
	const loading = sources.some(isLoading);
	return (
		<Box flexDirection="column" width={width}>
			<Line width={width}>
				<Text bold color={palette.accent}>
					perscope
				</Text>
				<Text color={palette.muted}> · </Text>
				{live ? <Text color={palette.running}>{spinnerGlyph(now)}</Text> : <Text color={toneColor(look.tone)}>{look.glyph}</Text>}
				<Text color={toneColor(look.tone)}>
					{' '}
					{job ? look.word : loading ? 'reading' : model.inputEnd ? (model.events === 0 ? 'no events' : 'no runs') : 'waiting for events'}
				</Text>
				{job ? (
					<Text color={palette.muted}>
						{' '}
						· {jobLabel} {sanitizeLine(job.jobId).slice(0, 12)}
					</Text>
				) : null}
				<Text color={palette.muted}> · {formatDuration(span)}</Text>
				{quiet ? <Text color={palette.warning}> · {quiet}</Text> : null}
				{maxNote ? <Text color={palette.warning}> · {sanitizeLine(maxNote)}</Text> : null}
				<Text color={palette.muted}> · </Text>
				{sanitizeLine(shortSourceLabel(sourceLabel, sources))}
				{sources.map(source => (source.pid !== undefined && source.live ? ` (pid ${source.pid})` : ''))}
				{exit ? (
					<Text
						color={exit.exitCode === 0 ? palette.success : palette.error}
					>{` exited ${exit.signal ? `by ${exit.signal}` : String(exit.exitCode ?? '')}`}</Text>
				) : null}
				{/* Something the command started holds its output open, and may still write events: they are read. */}
				{exit?.outputOpen ? <Text color={palette.warning}> · output still open</Text> : null}
				{env.replay ? (
					<Text color={palette.mode}>
						{!reading ? ' · replayed' : env.replay.paused ? ' · ⏸ replay paused (space)' : ` · ▶ replay ${env.replay.speed}× (+/-)`}
					</Text>
				) : (
					<Text color={palette.muted}>{loading ? ' · loading' : reading ? ' · live' : ' · ended'}</Text>
				)}
			</Line>
			<Line width={width} color={palette.muted}>
				{/* With several jobs the line is in two labelled parts, the selected job's and every job's; the event count is of all of them, so it goes with the second. */}
				{all ? '' : `${events} · `}
				{all ? `${jobLabel}: ` : ''}
				{/* With several jobs, the word goes so that both parts fit 120 columns: `in / out` say tokens well enough. */}
				{plural(totals?.steps ?? 0, 'step')} · {all ? '' : 'tokens '}
				{formatCount(totals?.usage.inputTokens ?? 0)} in / {formatCount(totals?.usage.outputTokens ?? 0)} out /{' '}
				{formatCount(totals?.usage.cachedInputTokens ?? 0)} cached
				{cost === undefined ? null : <Text> · {cost}</Text>}
				{all ? (
					<Text>
						{' '}
						· all {jobs.length} jobs: {plural(all.steps, 'step')} · {formatCount(all.usage.inputTokens)} in / {formatCount(all.usage.outputTokens)} out ·{' '}
						{formatCost(all.cost)} · {events}
					</Text>
				) : null}
				{model.diagnosticCount > 0 ? <Text color={palette.error}> · ⚠ {plural(model.diagnosticCount, 'bad line')} (d)</Text> : null}
				{model.unknownEvents.size > 0 ? <Text> · {[...model.unknownEvents.values()].reduce((a, b) => a + b, 0)} unknown</Text> : null}
				{isEmptyFilter(ui.filter) ? null : (
					<Text color={palette.mode}>
						{' '}
						· filter {shownStart(filterText(ui.filter), Math.floor(width / 2))} ({hidden} hidden)
					</Text>
				)}
			</Line>
		</Box>
	);
}

/** Steps, tokens and cost of every job together. */
function allJobsTotals(model: Model, prices: PriceTable): {steps: number; usage: Usage; cost: Cost} {
	let steps = 0;
	let usage = zeroUsage;
	for (const run of model.runs.values()) {
		steps += runSteps(run);
		usage = addUsage(usage, run.usage);
	}

	return {steps, usage, cost: totalCost(model, prices)};
}
