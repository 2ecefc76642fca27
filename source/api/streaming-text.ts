import type {Run} from '../model/state.js';

/** The text a run's model is writing in its latest step, as it streams in. */
export type StreamingText = {
	/** The step it belongs to. */
	step: number;
	/** The model's reasoning (thinking) so far; empty when it has none. */
	reasoning: string;
	/** The answer text so far; empty when none was streamed. */
	result: string;
	/** Whether the runtime sent the whole text, so no more deltas will change it. */
	reasoningComplete: boolean;
	resultComplete: boolean;
};

/**
 * The streaming text of `run`'s latest step, or undefined when none streamed. Very long texts keep their
 * head and tail around a marker saying how much was cut, as in the viewer. The run's activities keep the
 * finished texts (a `complete` activity's `text`, an activity's `reasoning`).
 */
export function streamingText(run: Run): StreamingText | undefined {
	let latest: number | undefined;
	for (const step of run.streams.keys()) if (latest === undefined || step > latest) latest = step;
	const stream = latest === undefined ? undefined : run.streams.get(latest);
	if (!stream) return undefined;
	return {
		step: stream.step,
		reasoning: stream.reasoning.text,
		result: stream.result.text,
		reasoningComplete: stream.reasoning.isComplete,
		resultComplete: stream.result.isComplete,
	};
}
