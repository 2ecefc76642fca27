import {defaultMaxLineBytes} from '../parse/line-splitter.js';
import {defaultMaxGapMs} from '../query/replay-speed.js';

/** The options and exit codes, as `perscope --help` prints them under the package's description. */
const help = `
  Usage
    $ perscope [options] [FILE…]           view saved logs (.ndjson, .gz, .json)
    $ perstack run … | perscope [options]  view events piped on stdin
    $ perscope [options] -- COMMAND …      run COMMAND and view its events
    $ perscope                             play the bundled demo live

  Output (the interactive viewer when stdout is a terminal)
    --print              one activity per line (when stdout is not a terminal)
    --json               every activity as one JSON object per line
    --summary            a table of jobs and runs: status, steps, tokens,
                         cost, duration, error
    --summary --json     the same as one JSON document
    --conversation RUN[@STEP]
                         what the model was given and answered at a step:
                         RUN is a run id or its start, STEP the step (the
                         run's last when left out); new lines marked +
    --prices FILE        price tokens with this JSON table (README, Cost)

  Input
    FILE…                NDJSON logs, plain or gzip (told by content), or
                         JSON documents of events (an array, pretty-printed
                         objects); - is stdin
    perstack/jobs/ID     a job Perstack saved: its runs/*/event-*.json
    perstack             list the saved jobs, newest first
    --claude             list the Claude Code sessions of this directory
                         (~/.claude/projects/…), newest first
    --codex              list the Codex sessions that ran in this directory
                         (~/.codex/sessions/…), newest first
    --gemini             list the Gemini CLI sessions that ran in this
                         directory (~/.gemini/tmp/…/chats), newest first
    -- COMMAND [ARGS…]   run COMMAND (no shell), view its stdout live, keep
                         its stderr apart, exit with its code (128+N if
                         signal N killed it, 127 if it cannot run)
    -f, --follow         keep reading files and job directories as they
                         grow, like tail -F; Ctrl-C stops
    --max-line-bytes N   skip longer lines with a diagnostic
                         (default ${defaultMaxLineBytes})
    --dialect NAME       read every line as NAME's events: perstack,
                         claude-code, codex, gemini, opencode, amp, drover,
                         daemon (default: each stream's, told by its lines)

  Find
    --filter EXPR        only matching activities (viewer, --print, --json;
                         never --summary). Every term must hold:
                           type:exec,readTextFile  activity type (any of)
                           expert:KEY              expert (a comma list)
                           run:PREFIX              run id prefix
                           errors                  errors and failed calls
                           step:7  step:10-20      step or range
                           vitest  "two words"     free text
                         -term negates; repeat --filter to add terms
    --replay[=SPEED]     play saved logs at their pace, SPEED times as fast
                         (--replay=10); pauses over ${defaultMaxGapMs / 1000} s are cut to ${defaultMaxGapMs / 1000} s / SPEED

  Export (OpenTelemetry traces; README, "OpenTelemetry export")
    --otlp [URL]         send the runs as OTLP traces to URL (or the
                         OTEL_EXPORTER_OTLP_* endpoint), in any mode
    --otlp-file FILE     write the same spans to FILE as OTLP JSON lines
    --otlp-content       also export queries, results and tool arguments
                         (off: they may hold secrets)

  Other
    -h, --help           show this help (wins over anything else)
    -v, --version        show the version

  Exit codes
    0 done (bad lines are reported, not fatal) · 1 an input cannot be read
    2 bad usage · the command's own code with -- COMMAND
`;

/** What `perscope --help` prints: the package's description, then the usage, each indented two columns. */
export function helpText(description: string | undefined): string {
	const usage = help.replace(/^\n+|\n+$/g, '');
	return description === undefined ? `\n${usage}\n` : `\n${wrapWords(description, 78, '  ')}\n\n${usage}\n`;
}

/** Words in lines of at most `width` columns (indent included), for an 80-column terminal. */
function wrapWords(text: string, width: number, indent: string): string {
	const lines: string[] = [];
	let line = '';
	for (const word of text.split(/\s+/)) {
		if (line !== '' && indent.length + line.length + 1 + word.length > width) {
			lines.push(indent + line);
			line = word;
		} else line = line === '' ? word : `${line} ${word}`;
	}

	if (line !== '') lines.push(indent + line);
	return lines.join('\n');
}
