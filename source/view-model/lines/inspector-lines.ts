import type {Activity, Model, ToolActivity, ToolOutcome} from '../../model/state.js';
import {isToolActivity} from '../../model/state.js';
import {stepRecordOf} from '../../model/run-collections.js';
import {timeField} from '../../text/time-note.js';
import {exitStatus, parseExecResult} from '../../text/exec-result.js';
import {foldHeadTail, isFoldMarker} from '../../text/fold-lines.js';
import {numberedLines, splitLines} from '../../text/numbered-lines.js';
import {prettyJsonLines} from '../../text/pretty-json.js';
import {lineOfPiece, unifiedDiff} from '../../text/unified-diff.js';
import {cutOffText, depthOf} from '../../query/tree.js';
import {commandLine, field, iconOf, safeJson} from '../../text/describe-activity.js';
import {sanitizeBlock, sanitizeLine} from '../../text/sanitize.js';
import {wrapToWidth} from '../../text/wrap.js';
import {answerPlaceholder, interactiveStop, stepCheckpoint} from '../../query/resume-command.js';
import {answerContinuation, resumeContinuation} from '../../query/continuation.js';
import type {PerstackRunner} from '../../query/perstack-runner.js';
import {statusLook} from '../../text/status.js';
import {assertNever} from '../../model/assert-never.js';

export type InspectorLine = {
	text: string;
	/** `removed` and `added`: a diff's lines. */
	tone?: 'heading' | 'label' | 'error' | 'dim' | 'removed' | 'added';
	/** On the line saying a block was folded: which block (counted from 0 down the inspector), to unfold it. */
	fold?: number;
	/**
	 * A command to paste into a shell: one line, never wrapped (a line break pasted would run half of it); the
	 * screen cuts it at its edge like any line.
	 */
	unbroken?: true;
};

/** Which folded blocks are shown whole: every one, or those numbered (the `fold` of their marker line). */
export type Unfolded = 'all' | ReadonlySet<number>;

/** A pretty-printed raw event longer than this is cut: the inspector is for reading, not for a 1 MB dump. */
const maxRawLines = 2000;

/** How much of a long block (output, file content, a diff) is shown: its first and last lines. */
const foldHead = 40;
const foldTail = 20;

type Writers = {
	heading: (text: string) => void;
	field: (label: string, value: string | number | undefined | null) => void;
	block: (text: string, tone?: InspectorLine['tone']) => void;
	/** `tone`: of the whole block, or line by line. */
	folded: (lines: readonly string[], tone?: InspectorLine['tone'] | ((line: string) => InspectorLine['tone'])) => void;
	dim: (text: string) => void;
};

function stringArg(args: unknown, key: string): string | undefined {
	const value = field(args, key);
	return typeof value === 'string' ? value : undefined;
}

/**
 * A tool's arguments and result, the one place the inspector reads them: the model may come to keep them on
 * disk (re-read by offset) rather than in memory, and this is where that would go.
 */
export function toolPayload(activity: ToolActivity): {args: unknown; result: ToolOutcome | undefined} {
	return {args: activity.args, result: activity.result};
}

/** A diff's line as it is coloured: removed red, added green, its headers and context plain. */
function diffTone(line: string): InspectorLine['tone'] {
	if (line.startsWith('---') || line.startsWith('+++')) return undefined;
	return line.startsWith('-') ? 'removed' : line.startsWith('+') ? 'added' : undefined;
}

/**
 * Where an edit's old text starts in its file, when the file's text is known: the latest read of the same path
 * before the edit in its pane (`{"content": …, "from": …}`), or the text written to it and appended. A later
 * edit of the same file is not followed: its text is not known then, and an edit searched in it may be missed.
 */
function pieceLine(model: Model, edit: ToolActivity, path: string, oldText: string): number | undefined {
	const pane = model.runs.get(edit.runId)?.paneId;
	const indices = pane === undefined ? [] : (model.panes.get(pane)?.activityIndices ?? []);
	const samePath = (other: string | undefined) => other !== undefined && (other === path || other.endsWith(`/${path}`) || path.endsWith(`/${other}`));
	let file: {text: string; firstLine: number} | undefined;
	for (const index of indices) {
		const activity = model.activities[index];
		if (!activity || activity.id === edit.id) break;
		if (activity.type === 'writeTextFile' && samePath(stringArg(activity.args, 'path'))) file = {text: stringArg(activity.args, 'text') ?? '', firstLine: 1};
		// An append to a whole file known goes on its end; to a part read, where that part ends is not known.
		if (activity.type === 'appendTextFile' && samePath(stringArg(activity.args, 'path')))
			file = file?.firstLine === 1 ? {text: file.text + (stringArg(activity.args, 'text') ?? ''), firstLine: 1} : undefined;
		if (
			activity.type === 'readTextFile' &&
			activity.result?.error === undefined &&
			activity.result !== undefined &&
			samePath(stringArg(activity.args, 'path'))
		) {
			const read = parseObject(activity.result.text);
			const content = stringArg(read, 'content');
			const from = field(read, 'from');
			if (content !== undefined) file = {text: content, firstLine: (typeof from === 'number' && from >= 0 ? from : 0) + 1};
		}
	}

	return file === undefined ? undefined : lineOfPiece(file.text, oldText, file.firstLine);
}

/** What a tool did, as its kind is read: a command and its output, a diff, file content, or its arguments. */
function toolSections(model: Model, activity: ToolActivity, out: Writers): void {
	const {args, result} = toolPayload(activity);
	switch (activity.type) {
		case 'exec': {
			out.heading('Command');
			out.block(commandLine(args));
			const cwd = stringArg(args, 'cwd');
			if (cwd !== undefined && cwd !== '.') out.field('in', cwd);
			const env = field(args, 'env');
			if (typeof env === 'object' && env !== null && Object.keys(env).length > 0) out.field('env', safeJson(env));
			const exec = result === undefined ? undefined : parseExecResult(result.text);
			if (result === undefined) {
				out.heading('Result');
				out.dim('(waiting for the result)');
			} else if (exec === undefined) {
				resultSection(result, out);
			} else {
				// A failure says so in the heading of its error: on a short screen the error is in sight at once.
				if (exec.ok) {
					out.heading(`Exit: ${exitStatus(exec)}`);
					outputBlock('Output (stdout and stderr)', exec.output, out);
				} else {
					out.heading(`Error · exit: ${exitStatus(exec)}`);
					out.folded(splitLines(exec.error), 'error');
					if (exec.stdout !== undefined) outputBlock('stdout', exec.stdout, out);
					if (exec.stderr !== undefined) outputBlock('stderr', exec.stderr, out);
				}
			}

			return;
		}

		case 'editTextFile': {
			const path = stringArg(args, 'path');
			const oldText = stringArg(args, 'oldText') ?? '';
			out.field('path', path);
			out.heading('Change');
			out.folded(
				unifiedDiff(oldText, stringArg(args, 'newText') ?? '', (path === undefined ? undefined : pieceLine(model, activity, path, oldText)) ?? 1),
				diffTone,
			);
			writtenSection(result, out);
			return;
		}

		case 'writeTextFile':
		case 'appendTextFile': {
			const text = stringArg(args, 'text') ?? '';
			out.field('path', stringArg(args, 'path'));
			const count = splitLines(text).length;
			out.heading(`${activity.type === 'writeTextFile' ? 'Content written' : 'Content appended'} (${count} ${count === 1 ? 'line' : 'lines'})`);
			if (count === 0) out.dim('(empty)');
			else out.folded(numberedLines(text));
			writtenSection(result, out);
			return;
		}

		case 'readTextFile':
		case 'readImageFile':
		case 'readPdfFile':
		case 'deleteFile':
		case 'moveFile':
		case 'getFileInfo':
		case 'listDirectory':
		case 'createDirectory':
		case 'deleteDirectory':
		case 'todo':
		case 'clearTodo':
		case 'attemptCompletion':
		case 'interactiveTool':
		case 'generalTool': {
			const edit = activity.type === 'generalTool' ? editOf(args) : undefined;
			if (edit !== undefined) {
				out.field('path', edit.path);
				out.heading('Change');
				out.folded(unifiedDiff(edit.oldText, edit.newText), diffTone);
			}

			out.heading('Arguments');
			if (args === undefined) out.block('(none)');
			else out.folded(prettyJsonLines(args));
			if (result === undefined) {
				out.heading('Result');
				out.dim('(waiting for the result)');
			} else {
				resultSection(result, out);
			}

			return;
		}

		default:
			assertNever(activity.type);
	}
}

/**
 * The names agent CLIs give an edit's arguments: Claude Code's Edit and Gemini CLI's replace (`file_path`,
 * `old_string`, `new_string`), opencode's edit (`filePath`, `oldString`, `newString`). Their change is shown as a
 * diff, as a Perstack edit's is; numbered from line 1, where the file's line is not known.
 */
const editArgNames = [
	['file_path', 'old_string', 'new_string'],
	['filePath', 'oldString', 'newString'],
] as const;

function editOf(args: unknown): {path: string | undefined; oldText: string; newText: string} | undefined {
	for (const [path, oldName, newName] of editArgNames) {
		const oldText = stringArg(args, oldName);
		const newText = stringArg(args, newName);
		if (oldText !== undefined && newText !== undefined) return {path: stringArg(args, path), oldText, newText};
	}

	return undefined;
}

function outputBlock(title: string, text: string, out: Writers): void {
	const lines = splitLines(text);
	out.heading(`${title} (${lines.length} ${lines.length === 1 ? 'line' : 'lines'})`);
	if (lines.length === 0) out.dim('(none)');
	else out.folded(lines);
}

function resultSection(result: ToolOutcome, out: Writers): void {
	out.heading(result.error === undefined ? 'Result' : `Result — error: ${result.error}`);
	const pretty = prettyIfJson(result.text);
	out.folded(splitLines(pretty), result.error === undefined ? undefined : 'error');
	detailSection(result, out);
}

/** The tool's own result, as the runtime structured it (Claude Code's file read, command output, sub-agent report). */
function detailSection(result: ToolOutcome, out: Writers): void {
	if (result.detail === undefined) return;
	out.heading('The tool’s own result');
	out.folded(prettyJsonLines(result.detail));
}

/** The result of a write or an edit repeats its arguments; only where it went, or its error, is news. */
function writtenSection(result: ToolOutcome | undefined, out: Writers): void {
	if (result === undefined) {
		out.heading('Result');
		out.dim('(waiting for the result)');
	} else if (result.error === undefined) {
		out.heading('Result');
		const path = stringArg(parseObject(result.text), 'path');
		out.block(path === undefined ? 'done' : `done: ${path}`);
	} else {
		resultSection(result, out);
	}
}

function parseObject(text: string): unknown {
	if (!text.trimStart().startsWith('{')) return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/**
 * Everything about one activity, as lines ready to show: what it did, its full arguments and result,
 * the reasoning behind it, its run's checkpoint, and the raw event it came from.
 */
export function inspectorLines(
	model: Model,
	activity: Activity,
	rawEvent: string | undefined,
	width: number,
	unfolded: Unfolded = new Set(),
	/** How a continuation runs; by default the CLI on PATH in the runtime the log names. */
	runner?: PerstackRunner,
): InspectorLine[] {
	const lines: InspectorLine[] = [];
	let folds = 0;
	const textWidth = Math.max(10, width - 2);
	const heading = (text: string) => {
		lines.push({text: ''});
		lines.push({text: sanitizeLine(text), tone: 'heading'});
	};

	const field = (label: string, value: string | number | undefined | null) => {
		if (value === undefined || value === null || value === '') return;
		// Labels can be event text too (a child run's id): sanitised like the value.
		for (const [n, line] of wrapToWidth(`${sanitizeLine(label)}: ${sanitizeLine(String(value))}`, textWidth).entries())
			lines.push({text: n === 0 ? line : `  ${line}`, tone: n === 0 ? 'label' : undefined});
	};

	const block = (text: string, tone?: InspectorLine['tone']) => {
		for (const line of wrapToWidth(sanitizeBlock(text), textWidth)) lines.push(tone === undefined ? {text: line} : {text: line, tone});
	};

	// A long block is cut to its head and tail first, so a 50 KB output costs the lines shown; each line
	// then wraps under its own indentation, so wrapped JSON and numbered lines keep their shape. Unfolded on
	// request, it is built whole from the activity then, and only while the inspector shows it.
	const folded = (blockLines: readonly string[], toneOf?: InspectorLine['tone'] | ((line: string) => InspectorLine['tone'])) => {
		const fold = folds++;
		const whole = unfolded === 'all' || unfolded.has(fold);
		for (const line of whole ? blockLines : foldHeadTail(blockLines, foldHead, foldTail)) {
			if (!whole && isFoldMarker(line)) {
				lines.push({text: line, tone: 'dim', fold});
				continue;
			}

			const tone = typeof toneOf === 'function' ? toneOf(line) : toneOf;
			const clean = sanitizeBlock(line).replaceAll('\n', ' ');
			const indent = /^ */.exec(clean)![0].length;
			const room = textWidth - indent;
			// Deeper than half the width, indentation would leave too little room: wrap it as it is.
			const wrapped =
				room >= textWidth / 2 ? wrapToWidth(clean.slice(indent), room).map(part => `${' '.repeat(indent)}${part}`) : wrapToWidth(clean, textWidth);
			for (const part of wrapped) lines.push(tone === undefined ? {text: part} : {text: part, tone});
		}
	};

	lines.push({
		text: sanitizeLine(`${iconOf(activity.type)} ${activity.type} · ${activity.expertKey}${activity.step === undefined ? '' : ` · step ${activity.step}`}`),
		tone: 'heading',
	});
	// What the activity did and how it went come first; its ids and time after them, so that a short screen
	// (60×15) opens on the command and its error, not on ids.
	const ids = () => {
		heading('Ids and time');
		field('activity', activity.id);
		field('run', activity.runId);
		field('previous activity', activity.previousActivityId ?? '(first in run)');
		if (activity.delegatedBy) field('delegated by', `${activity.delegatedBy.expertKey} (${activity.delegatedBy.runId})`);
		const time = timeField(model.runs.get(activity.runId)?.dialect, activity.timestamp);
		if (time !== undefined) field('time', time);
		if (isToolActivity(activity) || activity.type === 'delegate') field('tool call', activity.toolCallId);
		if (isToolActivity(activity)) field('tool', `${activity.skillName === '' ? '' : `${activity.skillName} / `}${activity.toolName}`);
	};

	if (isToolActivity(activity)) {
		if (activity.message) {
			heading('Message');
			block(activity.message);
		}

		toolSections(model, activity, {heading, field, block, folded, dim: text => lines.push({text, tone: 'dim'})});
	} else {
		switch (activity.type) {
			case 'query':
			case 'complete':
				heading(activity.type === 'query' ? 'Query' : 'Result');
				block(activity.text === '' ? '(empty)' : activity.text);
				break;
			case 'error':
				heading('Error');
				block(`${activity.errorName}: ${activity.message}`, 'error');
				break;
			case 'retry':
				heading('Retry reason');
				block(activity.reason === '' ? '(none given)' : activity.reason);
				break;
			case 'delegationComplete':
				heading('Delegates returned');
				for (const result of activity.results) {
					field('expert', result.expertKey);
					block(result.text === '' ? '(no result text)' : result.text);
				}

				break;
			case 'delegate':
				field('delegate to', activity.delegateExpertKey);
				heading('Query');
				block(activity.query === '' ? '(empty)' : activity.query);
				if (activity.childRunIds.length > 0) {
					heading('Child runs');
					for (const childId of activity.childRunIds) {
						const child = model.runs.get(childId);
						field(childId, child ? `${child.expertKey} · ${statusLook[child.status].word}` : 'not in log');
					}
				}

				heading('Result');
				if (activity.result) {
					block(activity.result.text, activity.result.error === undefined ? undefined : 'error');
					detailSection(activity.result, {heading, field, block, folded, dim: text => lines.push({text, tone: 'dim'})});
				} else lines.push({text: '(waiting for the delegate)', tone: 'dim'});
				break;
			default:
				return assertNever(activity);
		}
	}

	ids();
	if (activity.reasoning) {
		heading('Reasoning');
		block(activity.reasoning, 'dim');
	}

	const run = model.runs.get(activity.runId);
	if (run) {
		heading('Run');
		field('expert', run.expertKey);
		// The raw status only when the word differs from it (`max steps (stoppedByExceededMaxSteps)`).
		const word = statusLook[run.status].word;
		field('status', word === run.status ? word : `${word} (${run.status})`);
		field('steps', run.endedSteps.length);
		field('depth', depthOf(model, run));
		if (run.resumesRunId) field('resumes run', run.resumesRunId);
		if (run.resumedByRunId) field('resumed by run', run.resumedByRunId);
		if (run.resumedFrom) {
			const from = run.resumedFrom;
			field(
				'started from',
				`run ${from.runId}${from.stepNumber === null ? '' : `, step ${from.stepNumber}`}${from.checkpointId === null ? '' : `, checkpoint ${from.checkpointId}`}`,
			);
		}
		const step = (activity.step === undefined ? undefined : stepRecordOf(run, activity.step)) ?? run.steps[run.steps.length - 1];
		if (step) {
			field('checkpoint', step.checkpointId);
			field('checkpoint status', step.status);
		}

		if (run.error) field('error', `${run.error.name}: ${run.error.message}`);
	}

	const cut = run ? cutOffText(model, run) : undefined;
	if (cut && cut.step === activity.step) {
		heading('Cut off: the input ended while the model was writing (no final event)');
		if (cut.reasoning !== undefined) {
			lines.push({text: 'thinking so far:', tone: 'label'});
			block(cut.reasoning);
		}

		if (cut.answer !== undefined) {
			lines.push({text: 'answer so far:', tone: 'label'});
			block(cut.answer);
		}
	}

	const unbroken = (text: string) => lines.push({text: sanitizeLine(text), unbroken: true});
	if (run) {
		// The run waiting now may be a later run of the pane that re-issued this call.
		const paneRuns = model.panes.get(run.paneId)?.runIds ?? [run.runId];
		const waiting = model.runs.get(paneRuns.at(-1) ?? run.runId) ?? run;
		const stop = interactiveStop(model, waiting);
		if (stop && stop.activity.id === activity.id) {
			// Before resuming: answering is what the job waits for.
			heading('Waiting for your answer');
			field('tool', stop.toolName);
			block(safeJson(stop.args, 2));
			lines.push({text: 'Answer it with:', tone: 'label'});
			unbroken(answerContinuation(stop, answerPlaceholder, runner).line);
			lines.push({text: 'a answers it from here · y copies the command', tone: 'dim'});
			if (stop.answerForm === 'json') {
				// Sanitised where lines are drawn, as every line here is.
				lines.push({
					text: `The step called ${stop.firstCall ?? 'another tool'} first: a plain answer would go to that call and the question would be asked again, so the answer names the question's call (JSON).`,
					tone: 'dim',
				});
			}
		}
	}

	const checkpoint = stepCheckpoint(model, activity);
	if (checkpoint?.resumeCommand && run) {
		heading(`Resume from this step (checkpoint ${checkpoint.checkpointId ?? ''})`);
		const resume = checkpoint.checkpointId === undefined ? undefined : resumeContinuation(model, run, checkpoint.checkpointId, runner);
		// The log may not hold the query to resume with: the command then stands for it (`<query>`).
		unbroken(resume?.line ?? checkpoint.resumeCommand);
		if (resume) lines.push({text: 'R resumes from here · y copies the command', tone: 'dim'});
	}

	heading(`Raw event (line ${activity.ref.line} of ${activity.ref.source})`);
	if (rawEvent === undefined) {
		lines.push({text: '(no longer available: the stream buffer has moved on)', tone: 'dim'});
	} else {
		const pretty = prettyIfJson(rawEvent).split('\n');
		block(pretty.slice(0, maxRawLines).join('\n'));
		if (pretty.length > maxRawLines) lines.push({text: `… ${pretty.length - maxRawLines} more lines`, tone: 'dim'});
	}

	return lines;
}

function prettyIfJson(text: string): string {
	const trimmed = text.trimStart();
	if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
	try {
		return safeJson(JSON.parse(trimmed), 2);
	} catch {
		return text;
	}
}
