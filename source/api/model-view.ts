import type {Diagnostic} from '../model/events.js';
import type {Activity, DockerState, InputEnd, Job, Pane, ProxyState, Run, RuntimeInfo, SkillState} from '../model/state.js';

/**
 * The model a reducer builds, as a library user sees it: what the events said, read-only. It is the
 * viewer's own model, not a copy, so it is current after every `push` and costs nothing to read; the
 * reducer's bookkeeping (indexes, pending links between runs) is left out of the type.
 */
export type Model = {
	/** Jobs by job id, in the order they were first seen. */
	readonly jobs: ReadonlyMap<string, Job>;
	/** Runs by run id, in the order they were first seen. A job lists its own in `Job.runIds`. */
	readonly runs: ReadonlyMap<string, Run>;
	/**
	 * Runs as the viewer shows them: a run and the runs that resume it (a delegating run resumed after its
	 * delegates answered) form one pane, by the first run's id.
	 */
	readonly panes: ReadonlyMap<string, Pane>;
	/** Every activity (a query, a tool call, a delegation, a result, an error, …) in arrival order. */
	readonly activities: readonly Activity[];
	/** Skills (MCP servers) by name, with their latest state and stderr. */
	readonly skills: ReadonlyMap<string, SkillState>;
	/** Docker services the runtime reported on, by name. */
	readonly docker: ReadonlyMap<string, DockerState>;
	/** What the runtime's network proxy allowed and blocked. */
	readonly proxy: ProxyState;
	/** Per run id, what the runtime said before the run started (expert, query, an interactive answer). */
	readonly runtime: ReadonlyMap<string, RuntimeInfo>;
	/** Events read (valid lines, known or not). */
	readonly events: number;
	/** Events of types this version does not know, counted by type. */
	readonly unknownEvents: ReadonlyMap<string, number>;
	/** Problems with lines (not JSON, a known event of the wrong shape, too long, a repeated event): the first 10,000. */
	readonly diagnostics: readonly Diagnostic[];
	/** Every diagnostic, including those past the 10,000 kept. */
	readonly diagnosticCount: number;
	/** The earliest and latest event timestamps seen (milliseconds since the epoch). */
	readonly firstTimestamp: number | undefined;
	readonly lastTimestamp: number | undefined;
	/** Changes whenever anything in the model changes: compare it to skip a redraw. */
	readonly rev: number;
	/** Set by `Reducer.end`: the input has ended, so what still waits will wait for ever. */
	readonly inputEnd: InputEnd | undefined;
};
