import {Box} from 'ink';
import {useEffect} from 'react';
import {plural} from '../text/format.js';
import {sanitizeLine} from '../text/sanitize.js';
import {iconLegend} from '../text/describe-activity.js';
import {packItems, wrapToWidth} from '../text/wrap.js';
import {useModelVersion, useUiDispatch, useUiState, useViewEnv} from './contexts.js';
import type {InspectorLine} from '../view-model/lines/inspector-lines.js';
import type {Command} from './keymap.js';
import {keyHelp} from './keymap.js';
import {priorities, useCommands} from './keypress.js';
import {Line} from './parts/line.js';
import {ScrollPanel} from './scroll-panel.js';
import {maxScroll} from '../view-model/scroll.js';
import {stderrDisplayLines} from '../view-model/lines/stderr-lines.js';
import {diagnosticsLines} from '../view-model/lines/diagnostics-lines.js';
import type {UiAction} from '../view-model/ui-state.js';
import {usageScope} from '../view-model/usage-scope.js';
import {usageLines} from '../view-model/lines/usage-lines.js';
import {useSelectionJob} from './hooks/use-selection-job.js';
import {shownJobs} from '../view-model/jobs.js';
import {palette} from './palette.js';

/** Overlays take every key before the tree; scrolling keys scroll them. */
function useOverlayKeys(lineCount: number, height: number): void {
	const dispatch = useUiDispatch();
	const max = maxScroll(lineCount, height);
	useCommands(priorities.overlay, command => scrollCommand(command, max, height, dispatch));
}

/**
 * Scrolling keys for any full-screen overlay; `closeOn` are the commands that close it. Keys that mean
 * nothing here are used up so they cannot reach the tree behind; quitting and help pass through.
 */
export function scrollCommand(
	command: Command,
	max: number,
	height: number,
	dispatch: (action: UiAction) => void,
	closeOn: readonly Command[] = ['overlay.close', 'item.activate', 'pane.collapse'],
): boolean {
	if (closeOn.includes(command)) {
		dispatch({type: 'closeOverlay'});
		return true;
	}

	switch (command) {
		case 'nav.up':
			dispatch({type: 'scrollOverlay', by: -1, max});
			return true;
		case 'nav.down':
			dispatch({type: 'scrollOverlay', by: 1, max});
			return true;
		case 'nav.pageUp':
			dispatch({type: 'scrollOverlay', by: -(height - 3), max});
			return true;
		case 'nav.pageDown':
			dispatch({type: 'scrollOverlay', by: height - 3, max});
			return true;
		case 'nav.top':
			dispatch({type: 'scrollOverlayTo', to: 0, max});
			return true;
		case 'nav.bottom':
			dispatch({type: 'scrollOverlayTo', to: max, max});
			return true;
		case 'help.toggle':
		case 'app.quit':
		case 'app.interrupt':
		case 'usage.open':
			// Let quitting and help through to the app.
			return false;
		default:
			// Keys that mean nothing here must not reach the tree behind the overlay.
			return true;
	}
}

export function HelpOverlay({scroll, height, width}: {scroll: number; height: number; width: number}) {
	// Narrow screens wrap rather than cut: a key's description continues under itself, icons pack into lines.
	const keyColumn = 15;
	const textWidth = Math.max(10, width - 1);
	const lines: InspectorLine[] = [
		{text: 'Keys', tone: 'heading'},
		...keyHelp.flatMap(([keys, what]) =>
			wrapToWidth(what, Math.max(10, textWidth - keyColumn)).map((piece, index) => ({text: `${(index === 0 ? keys : '').padEnd(keyColumn - 1)} ${piece}`})),
		),
		{text: ''},
		{text: 'Icons', tone: 'heading'},
		...packItems(
			iconLegend.map(([icon, meaning]) => `${icon} ${meaning}`),
			textWidth,
		).map(text => ({text})),
		{text: ''},
		{text: 'Status', tone: 'heading'},
		...packItems(['● running', '✓ completed', '✗ error', '⏸ waiting (delegates / input)', '⏹ max steps'], textWidth).map(text => ({text})),
	];
	useOverlayKeys(lines.length, height);
	return <ScrollPanel title="Help" lines={lines} scroll={scroll} height={height} width={width} hint="esc close" />;
}

export function DiagnosticsOverlay({scroll, height, width}: {scroll: number; height: number; width: number}) {
	const {model} = useViewEnv();
	useModelVersion();
	const all = diagnosticsLines(model, width);
	useOverlayKeys(all.length, height);
	return (
		<ScrollPanel
			title={`Diagnostics (${plural(model.diagnosticCount, 'bad line')})`}
			lines={all}
			scroll={scroll}
			height={height}
			width={width}
			hint="esc close"
		/>
	);
}

export function UsageOverlay({scroll, height, width}: {scroll: number; height: number; width: number}) {
	const {model, prices} = useViewEnv();
	useModelVersion();
	const ui = useUiState();
	const dispatch = useUiDispatch();
	const selected = useSelectionJob(width, shownJobs(model).length > 1);
	const scope = usageScope(model, selected, ui.overlay.kind === 'usage' && (ui.overlay.allJobs ?? false));
	// `u` again switches between the job and every job; with one job it has nothing to switch.
	useCommands(priorities.overlay + 1, command => {
		if (command !== 'usage.open' || !scope) return false;
		dispatch({type: 'toggleUsageJobs'});
		return true;
	});
	const {lines, shareOf} = usageLines(model, scope?.allJobs ? undefined : scope?.job, prices, width);
	useOverlayKeys(lines.length, height);
	const title = scope
		? `Token usage per expert · ${scope.allJobs ? `all ${scope.count} jobs` : `job ${scope.number}/${scope.count} · ${sanitizeLine(scope.coordinator)}`}`
		: 'Token usage per expert';
	const toggle = scope ? (scope.allJobs ? `u: job ${scope.number}/${scope.count} only · ` : `u: all ${scope.count} jobs · `) : '';
	return (
		<ScrollPanel
			title={title}
			lines={lines}
			scroll={scroll}
			height={height}
			width={width}
			hint={`${toggle}share of ${shareOf === 'cost' ? 'the cost' : 'input + output'} · esc close`}
		/>
	);
}

export function StderrOverlay({scroll, height, width}: {scroll: number; height: number; width: number}) {
	const {sources} = useViewEnv();
	useModelVersion();
	const lines: InspectorLine[] = [];
	for (const source of sources) {
		if (source.stderrCount === 0) continue;
		lines.push({
			text: sanitizeLine(
				`${source.label}: ${plural(source.stderrCount, 'line')}${source.stderrCount > source.stderr.length ? ` (the last ${source.stderr.length} kept)` : ''}`,
			),
			tone: 'heading',
		});
		for (const text of stderrDisplayLines(source.stderr, width)) lines.push({text});
	}

	if (lines.length === 0) lines.push({text: 'Nothing was written to stderr.', tone: 'dim'});
	useOverlayKeys(lines.length, height);
	return <ScrollPanel title="stderr" lines={lines} scroll={scroll} height={height} width={width} hint="esc close" />;
}

export function ConfirmQuit({width}: {width: number}) {
	const {quit, childRunning} = useViewEnv();
	const dispatch = useUiDispatch();
	const ui = useUiState();
	// Drawn again as the sources change: a command that ends while the question is open leaves nothing to ask
	// about, and the quit that was asked for goes ahead (with the command's exit code, as q after its end does).
	useModelVersion();
	useEffect(() => {
		if (!childRunning()) quit();
	});
	useCommands(
		priorities.confirm,
		command => {
			// y (or q again) quits; any other key is a no.
			if (command === 'confirm.yes' || command === 'app.quit') quit();
			else if (command !== 'app.interrupt') dispatch({type: 'closeOverlay'});
			return command !== 'app.interrupt';
		},
		ui.overlay.kind === 'confirmQuit',
	);
	return (
		<Box width={width} borderStyle="round" borderColor={palette.warning} paddingX={1}>
			<Line width={width - 4}>The command is still running. Stop it and quit? (y / n)</Line>
		</Box>
	);
}
