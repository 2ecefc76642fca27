// Fails the build when a wire format is declared twice and the two differ: a fast reader (Perstack's,
// source/parse/dialects/perstack/fast-reader.ts, and the agent CLIs' beside it) in any field from the zod schema it stands in for, or a
// dialect's list of event types (known without building its schema) from the schema's own. See
// source/parse/dialects/wire-check.ts.
import {claudeLineReader} from '../dist/parse/dialects/claude-code/fast-reader.js';
import {claudeSchemas} from '../dist/parse/dialects/claude-code/schema.js';
import {codexEventReader} from '../dist/parse/dialects/codex/fast-reader.js';
import {codexEventTypes, codexItemTypes, codexSchemas} from '../dist/parse/dialects/codex/schema.js';
import {rolloutLineReader} from '../dist/parse/dialects/codex/rollout-fast-reader.js';
import {rolloutEventTypes, rolloutItemTypes, rolloutLineTypes, rolloutSchemas} from '../dist/parse/dialects/codex/rollout-schema.js';
import {daemonEventTypes, daemonSchemas} from '../dist/parse/dialects/daemon/schema.js';
import {droverEventKinds, droverEventSchema} from '../dist/parse/dialects/drover/schema.js';
import {geminiEventReader, geminiJsonOutputReader} from '../dist/parse/dialects/gemini/fast-reader.js';
import {geminiEventTypes, geminiSchemas} from '../dist/parse/dialects/gemini/schema.js';
import {opencodeReaders} from '../dist/parse/dialects/opencode/fast-reader.js';
import {opencodeSchemas} from '../dist/parse/dialects/opencode/schema.js';
import {perstackEventTypes, perstackReaders} from '../dist/parse/dialects/perstack/fast-reader.js';
import {perstackSchemas} from '../dist/parse/dialects/perstack/schema.js';
import {specDifferences, typeListDifferences, unionDifferences} from '../dist/parse/dialects/wire-check.js';

const checks = [
	['the Perstack fast reader and schema', unionDifferences(perstackSchemas().event, perstackReaders, 'type')],
	['the Perstack event types and schema', typeListDifferences(perstackSchemas().event, perstackEventTypes, 'type')],
	['the drover event kinds and schema', typeListDifferences(droverEventSchema(), droverEventKinds, 'kind')],
	['the strategy daemon event types and schema', typeListDifferences(daemonSchemas().event, daemonEventTypes, 'type')],
	['the Codex event types and schema', typeListDifferences(codexSchemas().event, codexEventTypes, 'type')],
	['the Codex item types and schema', typeListDifferences(codexSchemas().item, codexItemTypes, 'type')],
	['the Codex rollout fast reader and schema', specDifferences(rolloutSchemas().line, rolloutLineReader.spec, 'line')],
	['the Codex rollout line types and schema', typeListDifferences(rolloutSchemas().line, rolloutLineTypes, 'type')],
	['the Codex rollout item kinds and schema', typeListDifferences(rolloutSchemas().responseItem, rolloutItemTypes, 'type')],
	['the Codex rollout event kinds and schema', typeListDifferences(rolloutSchemas().eventMessage, rolloutEventTypes, 'type')],
	['the Claude Code fast reader and schema', specDifferences(claudeSchemas().line, claudeLineReader.spec, 'line')],
	['the Codex fast reader and schema', specDifferences(codexSchemas().event, codexEventReader.spec, 'event')],
	['the Gemini CLI event types and schema', typeListDifferences(geminiSchemas().event, geminiEventTypes, 'type')],
	['the Gemini CLI fast reader and schema', specDifferences(geminiSchemas().event, geminiEventReader.spec, 'event')],
	['the Gemini CLI json output reader and schema', specDifferences(geminiSchemas().jsonOutput, geminiJsonOutputReader.spec, 'jsonOutput')],
	['the opencode fast reader and schema', unionDifferences(opencodeSchemas().event, opencodeReaders, 'type')],
];
const failed = checks.filter(([, differences]) => differences.length > 0);
for (const [what, differences] of failed) process.stderr.write(`check-wire: ${what} differ:\n${differences.map(line => `  ${line}\n`).join('')}`);
if (failed.length > 0) process.exit(1);
