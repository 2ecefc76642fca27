import type {Model, Run, StepStream} from './state.js';
import {TextAccumulator, type TextState} from './text-accumulator.js';

/*
 * A model as data that can be posted to another thread (structured clone). Everything in a model is plain
 * data, Maps, Sets and arrays, except the streaming text of runs, whose private fields do not clone: those are
 * carried as their state and rebuilt on arrival.
 */

type StreamState = {step: number; reasoning: TextState; result: TextState};
export type TransferredRun = Omit<Run, 'streams'> & {streams: Array<[number, StreamState]>};
export type TransferredModel = Omit<Model, 'runs'> & {runs: Array<[string, TransferredRun]>};

/** The run in a form that posts without loss. It shares everything but its streams with `run`. */
export function runToTransfer(run: Run): TransferredRun {
	const streams: Array<[number, StreamState]> = [];
	for (const [step, stream] of run.streams) streams.push([step, {step: stream.step, reasoning: stream.reasoning.toState(), result: stream.result.toState()}]);
	return {...run, streams};
}

/** The run a transferred one was made from. */
export function runFromTransfer(data: TransferredRun): Run {
	const streams = new Map<number, StepStream>();
	for (const [step, stream] of data.streams) {
		streams.set(step, {step: stream.step, reasoning: TextAccumulator.fromState(stream.reasoning), result: TextAccumulator.fromState(stream.result)});
	}

	return {...data, streams};
}

/** The model in a form that posts without loss. It shares everything but the runs' streams with `model`. */
export function modelToTransfer(model: Model): TransferredModel {
	return {...model, runs: [...model.runs].map(([runId, run]) => [runId, runToTransfer(run)])};
}

/** The model a transferred one was made from. */
export function modelFromTransfer(data: TransferredModel): Model {
	return {...data, runs: new Map(data.runs.map(([runId, run]) => [runId, runFromTransfer(run)]))};
}
