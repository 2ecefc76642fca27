/**
 * perscope as a library: the model the viewer draws, for your own tools (dashboards, CI checks, bots).
 *
 * ```ts
 * import {createReducer} from 'perscope';
 * const reducer = createReducer();
 * for (const line of lines) reducer.push(line);   // never throws: bad lines become diagnostics
 * reducer.model.runs;                             // jobs, runs, activities, skills, diagnostics, typed
 * reducer.summary();                              // what `perscope --summary --json` writes
 * ```
 *
 * @packageDocumentation
 */

import type * as events from '../model/events.js';
import type * as state from '../model/state.js';
import type * as summary from '../output/summary.js';
import type * as tree from '../query/tree.js';

export {createReducer, type EndOptions, type Reducer, type ReducerOptions} from './reducer.js';
export type {Model} from './model-view.js';
export {streamingText, type StreamingText} from './streaming-text.js';
export {activityTypes, isToolActivity} from '../model/state.js';
export {toolInput, type PathToolName, type ToolInput} from './tool-input.js';
export {runStatuses} from '../model/events.js';
export {builtinPrices, type ModelPrice, type PriceProvider, type PriceTable} from '../query/prices.js';

/** A job: the runs of one `perstack run` (a coordinator, its delegates, the runs that resume them). */
export type Job = state.Job;
/**
 * One run of one expert: its status, steps, token usage, the runs it delegated to (`childRunIds`) and the
 * one that delegated to it (`parentRunId`), and the text it is streaming (`streams`, see {@link streamingText}).
 */
export type Run = state.Run;
/** The runs the viewer shows as one: a run and the runs that resume it, with their activities in order. */
export type Pane = state.Pane;
/** What a run did: a query, a tool call, a delegation and its answer, a result, an error, a retry. Switch on `type`. */
export type Activity = state.Activity;
/** The `type` of an {@link Activity}. */
export type ActivityType = state.ActivityType;
/**
 * An activity that is a tool call (its `type` is the tool, `generalTool` for MCP tools): see {@link isToolActivity}.
 * Its `args` are as the model wrote them; {@link toolInput} gives them typed per tool (`exec`'s `command`,
 * `readTextFile`'s `path`, …).
 */
export type ToolActivity = state.ToolActivity;
/** A delegation to another expert; the child runs it started are in `childRunIds`. */
export type DelegateActivity = state.DelegateActivity;
/** The `type` of a tool call activity. */
export type ToolActivityType = state.ToolActivityType;
/** The tools of Perstack's base skill, which have activity types of their own. */
export type BaseToolType = state.BaseToolType;
/** A tool call's result: its text, and the error it reported, if any. */
export type ToolOutcome = state.ToolOutcome;
/** One step of a run: when it ran, its tokens, its checkpoint. */
export type StepRecord = state.StepRecord;
/** The streaming text of one step (prefer {@link streamingText} to reading it). */
export type StepStream = state.StepStream;
/** A skill (MCP server): starting, connected or disconnected, and its latest stderr lines. */
export type SkillState = state.SkillState;
/** A Docker service the runtime reported on. */
export type DockerState = state.DockerState;
/** What the runtime's network proxy allowed and blocked. */
export type ProxyState = state.ProxyState;
/** What the runtime said of a run before it started. */
export type RuntimeInfo = state.RuntimeInfo;
/** Where a run started from a checkpoint of an earlier run (`--resume-from`, a `--continue-job` follow-up). */
export type ResumedFrom = state.ResumedFrom;
/** How the input ended (see {@link Reducer.end}). */
export type InputEnd = state.InputEnd;
/** A problem with one line of the input: its source, its line number (from 1) and what was wrong. */
export type Diagnostic = events.Diagnostic;
/** Which runtime's events a run came from. */
export type Dialect = events.Dialect;
/** A run's status, as its last checkpoint (or end event) said. */
export type RunStatus = events.RunStatus;
/** Token counts, the five fields of the wire format. */
export type Usage = events.Usage;
/** Where an event came from: its source, line number and byte offset. */
export type EventRef = events.EventRef;
/** The `perscope --summary --json` document. */
export type Summary = summary.Summary;
/** One job of the {@link Summary}, with its runs in tree order. */
export type JobSummary = summary.JobSummary;
/** One run of a {@link JobSummary}. */
export type RunSummary = summary.RunSummary;
/** For a run still waiting for its delegates when the input ended, none of them running: why the job ended there. */
export type EndedWhileWaiting = tree.EndedWhileWaiting;
