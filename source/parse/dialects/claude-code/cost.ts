import type {ClaudeLineOf} from './schema.js';
import type {Session} from './state.js';

/**
 * The cost the CLI reports, from its process's start: what it adds since its last report is the cost of the
 * work since, which is every run of the session this stream made that no report covered yet (they are taken off
 * the session's list). Undefined when the line reports no cost.
 */
export function reportedCost(session: Session, line: ClaudeLineOf<'result'>): {usd: number; runIds: string[]} | undefined {
	let total = line.total_cost_usd;
	if (total === undefined && line.modelUsage) {
		const costs = Object.values(line.modelUsage).map(model => model.costUSD);
		if (costs.length > 0 && costs.every(cost => cost !== undefined)) total = costs.reduce((sum, cost) => sum + cost, 0);
	}

	if (total === undefined || total < 0) return undefined;
	// A total lower than the last is another process's (two logs of one session, concatenated).
	const usd = total >= session.reportedTotal ? total - session.reportedTotal : total;
	session.reportedTotal = total;
	return {usd, runIds: session.uncovered.splice(0)};
}
