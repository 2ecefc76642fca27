import type {Run, StepStream} from '../model/state.js';
import {TextAccumulator, type TextState} from '../model/text-accumulator.js';

/*
 * A model's runs as data that can be posted to another thread (structured clone). Everything else in a model
 * is plain data, Maps, Sets and arrays, and posts as it is; the streaming text of runs does not, since its
 * private fields do not clone: it is carried as its state and rebuilt on arrival (sources/load-worker.ts).
 */

type StreamState = {step: number; reasoning: TextState; result: TextState; callReasoning: string | undefined; resultGeneration: boolean};
export type TransferredRun = Omit<Run, 'streams'> & {streams: Array<[number, StreamState]>};

/** The run in a form that posts without loss. It shares everything but its streams with `run`. */
export function runToTransfer(run: Run): TransferredRun {
	const streams: Array<[number, StreamState]> = [];
	for (const [step, stream] of run.streams) streams.push([step, {step: stream.step, reasoning: stream.reasoning.toState(), result: stream.result.toState(), callReasoning: stream.callReasoning, resultGeneration: stream.resultGeneration}]);
	return {...run, streams};
}

/** The run a transferred one was made from. */
export function runFromTransfer(data: TransferredRun): Run {
	const streams = new Map<number, StepStream>();
	for (const [step, stream] of data.streams) {
		streams.set(step, {step: stream.step, reasoning: TextAccumulator.fromState(stream.reasoning), result: TextAccumulator.fromState(stream.result), callReasoning: stream.callReasoning, resultGeneration: stream.resultGeneration});
	}

	return {...data, streams};
}
