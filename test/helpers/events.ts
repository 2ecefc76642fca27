/** Two Perstack event lines for one small run: a query and its completion, each one transcript line. */
export function runLines(label: string, number: number, timestamp = 1_700_000_000_000 + number * 1000): string {
	const runId = `${label}-run-${number}`;
	const base = {expertKey: 'writer', jobId: `${label}-job`, runId, stepNumber: 1};
	const start = {
		...base,
		type: 'startRun',
		id: `${runId}-start`,
		timestamp,
		initialCheckpoint: {id: `${runId}-c0`, status: 'init', stepNumber: 1},
		inputMessages: [{type: 'userMessage', contents: [{type: 'textPart', text: `${label} query ${number}`}]}],
	};
	const complete = {
		...base,
		type: 'completeRun',
		id: `${runId}-complete`,
		timestamp: timestamp + 1,
		text: `${label} answer ${number}`,
		checkpoint: {id: `${runId}-c1`, status: 'completed', stepNumber: 1},
		step: {
			stepNumber: 1,
			startedAt: timestamp,
			finishedAt: timestamp + 1,
			usage: {inputTokens: 3, outputTokens: 2, reasoningTokens: 0, totalTokens: 5, cachedInputTokens: 0},
		},
	};
	return `${JSON.stringify(start)}\n${JSON.stringify(complete)}\n`;
}
