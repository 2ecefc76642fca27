import {defaultMaxLineBytes} from '../parse/line-splitter.js';
import {defaultMaxGapMs} from '../query/replay-speed.js';

/** The options and exit codes, as `perscope --help` prints them under the package's description. */
const help = `
  Usage
    $ perscope [options] [FILE…]          view saved logs (.ndjson, .gz)
    $ perstack run … | perscope [options]  view events piped on stdin
    $ perscope                             (no input) open the bundled demo log

  Output (the interactive viewer is used when stdout is a terminal)
    --print                 readable transcript, one activity per line (default when stdout is not a terminal)
    --json                  every activity as one JSON object per line, in arrival order
    --summary               a table of jobs and runs: status, steps, tokens, cost, duration, error
    --summary --json        the same as one JSON document
    --conversation RUN[@STEP]
                            what the model was given and answered at a step: RUN is a run id or the start of
                            one, STEP the step (the run's last when left out); new lines marked +
    --prices FILE           price tokens with this JSON table instead of the built-in one (see README, Cost)

  Input
    FILE…                   NDJSON event logs, plain or gzip-compressed (told by content, not name); - is stdin
    perstack/jobs/ID        a persisted Perstack job: its runs/*/event-*.json files, in event order
    perstack                list the persisted jobs, newest first (perstack/jobs works too)
    -- COMMAND [ARGS…]      run COMMAND (no shell) and view its stdout live; its stderr is kept apart.
                            perscope then exits with the command's code (128+N if signal N killed it,
                            127 if it cannot run); Ctrl-C interrupts the command first
    -f, --follow            keep reading files and job directories as they grow, like tail -F (truncated
                            or rotated files are read again; missing ones are waited for); Ctrl-C stops
    --max-line-bytes N      lines longer than N bytes are skipped with a diagnostic (default ${defaultMaxLineBytes})

  Find
    --filter EXPR           only matching activities, in the viewer, --print and --json (--summary is never
                            filtered; --print and --json count the hidden ones on stderr). Every term must hold:
                              type:exec,readTextFile   activity type (any of)
                              expert:KEY               expert key (any of a comma list)
                              run:PREFIX               run id prefix
                              errors                   errors, and tool calls that returned one
                              step:7  step:10-20       step number or range (step:10- and step:-20 too)
                              vitest  "two words"      free text: paths, commands, queries, results, reasoning
                            -term negates (--filter -type:todo). Repeat --filter to add terms
    --replay[=SPEED]        play saved logs with their original timing, SPEED times as fast (default 1,
                            e.g. --replay=10); a pause over ${defaultMaxGapMs / 1000} s in the log is cut to ${defaultMaxGapMs / 1000} s / SPEED.
                            Not with --follow or a command; --summary ignores it

  Export (OpenTelemetry traces; README, "OpenTelemetry export")
    --otlp [URL]            send the runs as OTLP traces while perscope runs, in any mode, to URL (one with
                            no path gets /v1/traces) or else OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT; protocol,
                            headers and resource from the standard OTEL_* variables. On exit it flushes for at
                            most 5 s and says on stderr how many spans were exported and dropped
    --otlp-file FILE        write the same spans to FILE as OTLP JSON lines (the Collector's file format)
    --otlp-content          also export queries, results, tool arguments and results (off: they may hold
                            secrets), each cut to 8192 characters

  Other
    --help                  show this help
    --version               show the version

  Exit codes
    0 success (bad lines are reported, not fatal) · 1 an input cannot be read (or --otlp-file written) · 2 bad usage
`;

/** What `perscope --help` prints: the package's description, then the usage, each indented two columns. */
export function helpText(description: string | undefined): string {
	const usage = help.replace(/^\n+|\n+$/g, '');
	return description === undefined ? `\n${usage}\n` : `\n  ${description}\n\n${usage}\n`;
}
