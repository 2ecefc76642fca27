import type {Model} from '../../model/state.js';
import {diagnosticLine} from '../../text/diagnostic-line.js';
import {sanitizeLine} from '../../text/sanitize.js';
import {wrapIndented} from '../../text/wrap.js';
import type {InspectorLine} from './inspector-lines.js';

/**
 * The diagnostics overlay's lines at `width` columns: each bad line where it was and why, the reason wrapped
 * under itself (a reason says what to fix: cut at the edge, its end was lost), then the unknown event types.
 * A source that failed as a whole is named without a line (`diagnosticLine`).
 */
export function diagnosticsLines(model: Model, width: number): InspectorLine[] {
	const room = Math.max(10, width - 1);
	const lines: InspectorLine[] = [];
	for (const diagnostic of model.diagnostics) for (const text of wrapIndented(diagnosticLine(diagnostic, '  '), room, 4)) lines.push({text});
	for (const [type, count] of model.unknownEvents) lines.push({text: sanitizeLine(`unknown event type ${type} × ${count}`), tone: 'dim'});
	if (model.diagnosticCount > model.diagnostics.length) lines.push({text: `… and ${model.diagnosticCount - model.diagnostics.length} more`, tone: 'dim'});
	if (lines.length === 0) lines.push({text: 'No bad lines.', tone: 'dim'});
	return lines;
}
