/**
 * Where each Perstack event type falls within one step of a run, following the runtime's state machine.
 * Persisted event files are ordered by timestamp, then step, then this rank, then file name: events of
 * one step often share a millisecond, and the file system lists them in no useful order.
 *
 * Run-result streaming comes after `attemptCompletion` because that is when the runtime generates the
 * final answer; reasoning streaming belongs to the generation before the tool calls.
 */
const stepOrder: ReadonlyArray<readonly string[]> = [
	// Runtime events are not persisted by the runtime, but a hand-made directory may hold them; they precede the run.
	['initializeRuntime', 'skillStarting', 'skillConnected', 'skillStderr', 'dockerBuildProgress', 'dockerContainerStatus', 'proxyAccess'],
	['startRun'],
	['resumeToolCalls'],
	['startGeneration'],
	['retry'],
	// The released CLI (0.0.54) names these start and complete events without `Streaming`.
	['startStreamingReasoning', 'startReasoning'],
	['streamReasoning'],
	['completeStreamingReasoning', 'completeReasoning'],
	['callTools'],
	['callDelegate', 'callInteractiveTool'],
	['resolveToolResults', 'resolveThought', 'resolvePdfFile', 'resolveImageFile'],
	['attemptCompletion'],
	['startStreamingRunResult', 'startRunResult'],
	['streamRunResult'],
	['completeStreamingRunResult'],
	['finishMcpTools'],
	['skipDelegates'],
	['proceedToInteractiveTools'],
	['finishToolCall'],
	['finishAllToolCalls'],
	// A type this table does not know goes here: after whatever a step does, before the step ends.
	[],
	['continueToNextStep', 'stopRunByInteractiveTool', 'stopRunByDelegate', 'stopRunByExceededMaxSteps', 'stopRunByError', 'completeRun'],
	['skillDisconnected'],
];

const unknownRank = stepOrder.findIndex(group => group.length === 0);

const rankOf: ReadonlyMap<string, number> = new Map<string, number>(stepOrder.flatMap((group, rank) => group.map((type): [string, number] => [type, rank])));

export function eventTypeRank(type: string): number {
	return rankOf.get(type) ?? unknownRank;
}

export type OrderedEventFile = {timestamp: number; step: number; type: string; name: string};

/** Timestamp, then step, then place in the state machine, then file name; unparsable parts sort last. */
export function compareEventFiles(a: OrderedEventFile, b: OrderedEventFile): number {
	return (
		compareNumbers(a.timestamp, b.timestamp) ||
		compareNumbers(a.step, b.step) ||
		eventTypeRank(a.type) - eventTypeRank(b.type) ||
		(a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
	);
}

function compareNumbers(a: number, b: number): number {
	const aKnown = Number.isFinite(a);
	const bKnown = Number.isFinite(b);
	if (aKnown && bKnown) return a - b;
	if (aKnown === bKnown) return 0;
	return aKnown ? -1 : 1;
}
