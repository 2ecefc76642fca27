import type {EventRef, Usage} from '../../../model/events.js';
import {addUsage, zeroUsage} from '../../../model/usage.js';
import {withHead, type EventBody, type EventHead} from '../event-head.js';
import {lineOnlyEvent, type ParsedOut} from '../stream-dialect.js';
import type {Call, Child, ClaudeFlavour, RunState, Session, Task} from './state.js';
import {ResponseUsage} from './usage.js';

/*
 * A Claude Code stream being read (reader.ts): what is kept from line to line, and what every kind of line does
 * with it: start a turn (a root run) or a run, count a step and its usage, and make the events of the line being
 * read. The lines' own readers (system.ts, assistant.ts, user.ts, result.ts, partial-messages.ts, and the
 * sub-agents' sub-agents.ts) share one.
 */

/** The line being read: where its events go, and how many it made so far. */
type LineState = {
	ref: EventRef;
	wireType: string;
	timestamp: number | undefined;
	out: ParsedOut;
	made: number;
	/** A session transcript's line (transcript.ts): no result will report what its runs cost. */
	transcript: boolean;
};

export class ClaudeStream {
	readonly flavour: ClaudeFlavour;
	readonly sessions = new Map<string, Session>();
	/** The session of lines that name none: the last one named. */
	session = '';
	readonly calls = new Map<string, Call>();
	readonly children = new Map<string, Child>();
	readonly tasks = new Map<string, Task>();
	/**
	 * The first task (in `tasks`' order) of each call, so that finding a call's task is not a walk over every task
	 * of the stream (a stream of many sessions has thousands). Undefined once a task id was given again for another
	 * call: then `tasks`' order alone says which task is first, and it is walked.
	 */
	taskByCall: Map<string, Task> | undefined = new Map();
	readonly runs = new Map<string, RunState>();
	/** Each run's job: the session current when it started (a sub-agent's, its parent's). */
	readonly jobs = new Map<string, string>();
	readonly usage = new ResponseUsage();
	readonly rootIds = new Set<string>();
	/** The suffix the next root run named after an id already taken gets (`<id>#<n>`). */
	readonly nextSuffix = new Map<string, number>();
	/**
	 * The time of the last line that had one. Lines without (system, result, stream events; 2.0 has none) are
	 * given none: their moment is not known. A result says how long its turn took, which dates the turn's start.
	 */
	lastTime: number | undefined;
	line: LineState | undefined;

	constructor(flavour: ClaudeFlavour) {
		this.flavour = flavour;
	}

	// -----------------------------------------------------------------------------------------------------
	// Events

	/**
	 * An event of the line being read, of run `runId` (none: ''), at step `step`: in the run's job and at the line's
	 * time unless `jobId` or `timestamp` says another.
	 */
	emit(runId: string, payload: EventBody, step?: number, jobId?: string, timestamp?: number): void {
		const line = this.line!;
		const head: EventHead & {continuesLine?: true} = {
			dialect: this.flavour.dialect,
			wireType: line.wireType,
			id: `${line.ref.source}:${line.ref.line}`,
			jobId: jobId ?? this.jobOfRun(runId),
			runId,
			expertKey: undefined,
			step,
			timestamp: timestamp ?? line.timestamp,
			agent: undefined,
			ref: line.ref,
		};
		if (line.made > 0) head.continuesLine = true;
		line.made++;
		line.out({kind: 'event', event: withHead(head, payload)});
	}

	marker(): void {
		this.emit('', {kind: 'marker'});
	}

	/** The line being read, of a type (`system/<subtype>`) this version does not know. */
	unknown(wireType: string): void {
		const line = this.line!;
		line.made++;
		line.out(lineOnlyEvent('unknown', this.flavour.dialect, wireType, line.ref));
	}

	/** The job of a run: its session's (a run's session is the one current when it started). */
	jobOfRun(runId: string): string {
		return runId === '' ? '' : (this.jobs.get(runId) ?? this.session);
	}

	// -----------------------------------------------------------------------------------------------------
	// Sessions, turns and runs

	sessionState(id = this.session): Session {
		let session = this.sessions.get(id);
		if (!session) {
			session = {turns: [], reportedTotal: 0, uncovered: [], servers: new Map()};
			this.sessions.set(id, session);
		}

		return session;
	}

	/** A new turn of the current session: a root run. */
	startTurn(uuid: string | undefined): string {
		const session = this.sessionState();
		let runId = uuid ?? (this.session === '' ? this.flavour.dialect : this.session);
		if (this.rootIds.has(runId)) {
			// Counted on from the last suffix this id was given: a session of thousands of turns named by it (or a line
			// repeated thousands of times) would otherwise try every suffix again for each new turn.
			const base = runId;
			let n = this.nextSuffix.get(base) ?? 2;
			while (this.rootIds.has(`${base}#${n}`)) n++;
			runId = `${base}#${n}`;
			this.nextSuffix.set(base, n + 1);
		}

		this.rootIds.add(runId);
		session.turns.push({runId, closed: false});
		this.newRun(runId);
		this.emit(runId, {kind: 'childRunStart', childRunId: runId, childExpertKey: this.flavour.rootExpert, query: undefined, viaToolName: undefined});
		return runId;
	}

	newRun(runId: string): RunState {
		const state: RunState = {
			step: 0,
			messageId: undefined,
			modelKnown: false,
			text: undefined,
			thinking: undefined,
			lastText: undefined,
			commandOutput: undefined,
			usage: zeroUsage,
			query: undefined,
		};
		this.runs.set(runId, state);
		this.jobs.set(runId, this.session);
		// A transcript has no results: no report of its own covers its runs, and a stream's report of the same session
		// (a turn run with --resume, read beside the transcript) covers only that stream's runs.
		if (this.line?.transcript !== true) this.sessionState().uncovered.push(runId);
		return state;
	}

	state(runId: string): RunState {
		return this.runs.get(runId) ?? this.newRun(runId);
	}

	/** The main loop's run now: the newest turn, or a new one when it has ended (or none began). */
	mainRun(): string {
		const turn = this.sessionState().turns.at(-1);
		return turn && !turn.closed ? turn.runId : this.startTurn(undefined);
	}

	/** The model a run's responses come from, for what it cost (in no job: the job's model is its init's). */
	runModel(runId: string, model: string): void {
		const state = this.state(runId);
		if (state.modelKnown) return;
		state.modelKnown = true;
		this.emit(runId, {kind: 'runtimeInit', model}, undefined, '');
	}

	// -----------------------------------------------------------------------------------------------------
	// Steps and usage

	/** A response of the run: a new step when it is another response than the last. */
	response(runId: string, messageId: string | undefined, model: string | undefined): number {
		const state = this.state(runId);
		if (messageId === undefined || messageId !== state.messageId) {
			state.step++;
			state.messageId = messageId;
			state.text = undefined;
			state.thinking = undefined;
			// A transcript keeps every message of the session: the step's conversation is read from its lines (a
			// stream's from the transcript Claude Code keeps of its session).
			this.emit(
				runId,
				this.flavour.dialect === 'claude-code' ? {kind: 'stepStart', counted: true, messagesInLines: true} : {kind: 'stepStart', counted: true},
				state.step,
			);
		}

		if (model !== undefined && model !== '') this.runModel(runId, model);

		return state.step;
	}

	/** A response's usage, counted once however many lines repeat it (usage.ts). */
	countUsage(runId: string, messageId: string | undefined, usage: Usage): void {
		const added = messageId === undefined ? usage : this.usage.add(messageId, usage);
		if (!added) return;
		const state = this.state(runId);
		state.usage = addUsage(state.usage, added);
		this.emit(runId, {kind: 'usage', usage: added}, state.step);
	}
}
