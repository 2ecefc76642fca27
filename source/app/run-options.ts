import type {OtlpOptions} from '../export/otlp/options.js';
import type {Dialect} from '../model/events.js';
import type {LoadTuning} from '../load/tuning.js';
import type {Filter} from '../query/filter.js';
import type {PriceTable} from '../query/prices.js';

/**
 * What a run is given from the command line and the environment (cli/main.ts), whichever mode shows it: the
 * viewer (interactive-start.ts, interactive.ts) and the headless modes (headless.ts, conversation.ts) each take
 * these and add their own.
 */
export type RunOptions = {
	maxLineBytes: number;
	/** `--filter`: which activities the viewer and the transcripts show; summaries always cover everything. */
	filter?: Filter | undefined;
	/** `--replay`: events paced by their timestamps, this many times as fast as they happened. */
	replaySpeed?: number | undefined;
	/** Loader settings for tests and measurements (source/cli/environment.ts). */
	tuning?: LoadTuning | undefined;
	/** false (PERSCOPE_FAST=0): every line is read the plain way, one after the other, on this thread. */
	fast: boolean;
	/** `--dialect`: every line is read as this dialect's; undefined tells each stream's from its lines. */
	dialect?: Dialect | undefined;
	/** What tokens cost (`--prices FILE`); the built-in table when not given. */
	prices?: PriceTable | undefined;
	/** `--otlp`, `--otlp-file`: the runs as OpenTelemetry spans, sent as they end. */
	otlp?: OtlpOptions | undefined;
	/**
	 * Where Claude Code keeps its projects' sessions (`$CLAUDE_CONFIG_DIR/projects`, `~/.claude/projects`): a Claude
	 * Code stream's conversation is read from its session's transcript there.
	 */
	claudeProjects?: string | undefined;
	/** Where Codex keeps its sessions' rollouts (`$CODEX_HOME/sessions`, `~/.codex/sessions`), likewise for its streams. */
	codexSessions?: string | undefined;
	/** Where Gemini CLI keeps its sessions' chats (`$GEMINI_CLI_HOME/.gemini`, `~/.gemini`), likewise for its streams. */
	geminiFolder?: string | undefined;
	/**
	 * Where listings of sessions and jobs are kept between runs (`$XDG_CACHE_HOME/perscope/listings.json`,
	 * `~/.cache/perscope/…`): a session listed before and unchanged since is not read again (load/listing-cache.ts).
	 */
	listingCache?: string | undefined;
};
