/*
 * A cost as the viewer and `--summary` show it: `$1.23`, small sums with the digits that matter (`$0.0042`),
 * `?` when it is not known (a model the price table does not have). Never rounded to look like nothing: a
 * cost above zero but under a hundredth of a cent reads `<$0.0001`.
 */
export function formatCost(cost: number | undefined): string {
	if (cost === undefined) return '?';
	if (cost === 0) return '$0';
	if (cost < 0.0001) return '<$0.0001';
	if (cost < 0.01) return `$${cost.toFixed(4)}`;
	if (cost < 1000) return `$${cost.toFixed(2)}`;
	return `$${Math.round(cost).toString()}`;
}
