import type {Usage} from '../../model/events.js';
import {zeroUsage} from '../../model/usage.js';
import {tokenCountOf} from './common.js';

/** drover and the daemon report only input and output tokens; their total is the sum. */
export function inputOutputUsage(input: number | undefined, output: number | undefined): Usage {
	const inputTokens = tokenCountOf(input);
	const outputTokens = tokenCountOf(output);
	return {...zeroUsage, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens};
}
