/*
 * A log made to trip up the fast path: message histories that are valid, invalid, escaped, truncated,
 * extended by invalid elements, hidden in strings and in tool arguments; duplicate type keys; streaming lines
 * in and out of the runtime's exact form; invalid UTF-8 inside and outside strings; a byte order mark, CRLF,
 * blank lines, an overlong line and no final newline. Whatever the fast path does with it must come out as
 * the plain path's model and diagnostics.
 */

const jobId = 'hostilejob00000000000000';
const runId = 'hostilerun00000000000000';
const childRunId = 'hostilechild000000000000';
let sequence = 0;

function head(type: string, step = 1, run = runId): Record<string, unknown> {
	sequence++;
	return {
		type,
		id: `ev${String(sequence).padStart(22, '0')}`,
		expertKey: run === runId ? 'coordinator' : 'child',
		timestamp: 1_795_000_000_000 + sequence,
		jobId,
		runId: run,
		stepNumber: step,
	};
}

const filler = 'The history repeats every message of the run, which is why logs grow so large. '.repeat(8);

function message(index: number, type = 'expertMessage'): Record<string, unknown> {
	return {type, contents: [{type: 'textPart', text: `${filler}#${index}`, id: `part${index}`}], id: `msg${index}`};
}

function history(count: number): Array<Record<string, unknown>> {
	return [message(0, 'instructionMessage'), message(1, 'userMessage'), ...Array.from({length: Math.max(0, count - 2)}, (_, index) => message(index + 2))];
}

function checkpoint(step: number, count: number, status = 'proceeding', run = runId): Record<string, unknown> {
	return {
		id: `cp${step}${run.slice(0, 4)}`,
		jobId,
		runId: run,
		expert: {key: 'coordinator', name: 'coordinator', version: '1.0.0'},
		stepNumber: step,
		status,
		messages: history(count),
		usage: {inputTokens: 100 * step, outputTokens: 10, reasoningTokens: 1, totalTokens: 100 * step + 10, cachedInputTokens: 0},
	};
}

const usage = {inputTokens: 50, outputTokens: 5, reasoningTokens: 0, totalTokens: 55, cachedInputTokens: 0};

function json(value: unknown): string {
	return JSON.stringify(value);
}

/** The line of `event` with its history of `count` messages ending in `tail` instead of `]`. */
function withHistoryTail(event: Record<string, unknown>, count: number, tail: string): string {
	const array = json(history(count));
	const line = json({...event, messages: history(count)});
	if (!line.includes(array)) throw new Error('history not found');
	return line.replace(array, array.slice(0, -1) + tail);
}

export function hostileLog(): Buffer {
	sequence = 0;
	const lines: Array<string | Buffer> = [];
	const add = (line: string | Buffer) => lines.push(line);

	add(json({...head('initializeRuntime'), runtimeVersion: '0.0.76', expertName: 'coordinator', model: 'claude', maxSteps: 100, query: 'Find the bug.'}));
	// The query is the last user message of inputMessages: a startRun's inputMessages must never be cut.
	add(
		json({
			...head('startRun'),
			initialCheckpoint: checkpoint(1, 6, 'init'),
			inputMessages: [message(1, 'userMessage'), ...history(4), {type: 'userMessage', contents: [{type: 'textPart', text: `The real query ${filler}`}]}],
		}),
	);
	add(json({...head('startGeneration'), messages: history(3)}));
	// Enough ordinary streaming lines first that the fast lane trusts itself before the odd ones come.
	for (let index = 0; index < 20; index++) {
		add(json({...head('startStreamingReasoning')}));
		add(json({...head('streamReasoning'), delta: `warm ${index}`}));
		add(json({...head('completeStreamingReasoning'), text: `warm ${index}`}));
		add(json({...head('startStreamingRunResult')}));
		add(json({...head('streamRunResult'), delta: `warm ${index}`}));
		add(json({...head('completeStreamingRunResult'), text: `warm ${index}`}));
	}

	add(json({...head('startStreamingReasoning')}));
	add(json({...head('streamReasoning'), delta: 'plain'}));
	add(json({...head('streamReasoning'), delta: 'escapes: "quoted" \\ back\nslash\ttab é 😀 \u2028'}));
	add(json({...head('streamReasoning'), delta: '\u0000 NUL as an escape'}));
	add(json({...head('completeStreamingReasoning'), text: 'done thinking'}));
	add(
		json({
			...head('callTools'),
			newMessage: {
				type: 'expertMessage',
				contents: [
					{type: 'thinkingPart', thinking: 'hmm'},
					{type: 'textPart', text: 'calling'},
				],
			},
			// Tool arguments are kept: a history inside them must stay.
			toolCalls: [{id: 'call1', skillName: '@perstack/base', toolName: 'exec', args: {command: 'x', messages: history(4), newMessages: history(3)}}],
			usage,
		}),
	);
	add(
		json({
			...head('resolveToolResults'),
			toolResults: [{id: 'call1', skillName: '@perstack/base', toolName: 'exec', result: [{type: 'textPart', text: 'ok'}]}],
		}),
	);
	add(json({...head('finishToolCall'), newMessages: history(3)}));
	const step1 = json({
		...head('continueToNextStep'),
		checkpoint: checkpoint(1, 4),
		step: {
			stepNumber: 1,
			inputMessages: [],
			newMessages: history(4).slice(3),
			usage,
			startedAt: 1,
			finishedAt: 2,
			toolCalls: [{id: 'call1', skillName: 'x', toolName: 'exec', args: {messages: []}}],
		},
		nextCheckpoint: checkpoint(2, 4),
	});
	add(step1);
	add(json({...head('startGeneration', 2), messages: history(4)}));
	// A history extended by an element that is not JSON.
	const extended = json({...head('continueToNextStep', 2), checkpoint: checkpoint(2, 5), step: {stepNumber: 2, usage}});
	const known = json(history(4));
	add(extended.replace(json(history(5)), known.slice(0, -1) + ',{"oops":}]'));
	// A known history followed by a comma and no element.
	add(extended.replace(json(history(5)), known.slice(0, -1) + ', ]'));
	// A history extended by a valid element, then the same history again (a hit).
	add(
		json({
			...head('continueToNextStep', 2),
			checkpoint: checkpoint(2, 6),
			step: {stepNumber: 2, usage, newMessages: history(6).slice(4)},
			nextCheckpoint: checkpoint(3, 6),
		}),
	);
	add(json({...head('startGeneration', 3), messages: history(6)}));
	// Invalid JSON inside a history: a trailing comma, a raw control character, a bad escape, a bare word.
	add(withHistoryTail(head('startGeneration', 3), 3, ',]'));
	add(json({...head('startGeneration', 3), messages: history(3)}).replace('#1', '#1\there'));
	add(json({...head('startGeneration', 3), messages: history(3)}).replace('#2', '#2\\x'));
	add(withHistoryTail(head('startGeneration', 3), 3, ',nope]'));
	// Truncated in the middle of its history.
	add(json({...head('startGeneration', 3), messages: history(5)}).slice(0, 3000));
	// The key's text inside a string (escaped quotes), and a key that only ends like one.
	add(json({...head('startGeneration', 3), note: `"messages":[1,2,3] ${filler}`, Xmessages: history(3), messages: history(3)}));
	// A later duplicate "type" wins in JSON.parse: the line is another event than it starts as.
	add(json({...head('startGeneration', 3), messages: history(4)}).replace(/\}$/, ',"type":"callTools"}'));
	add(json({...head('startGeneration', 3), messages: history(4)}).replace(/\}$/, ',"type":"resolveToolResults","toolResults":[]}'));
	// …and then what the first type allows to cut is what the second one reads.
	add(
		json({
			...head('startGeneration', 3),
			inputMessages: [...history(4), {type: 'userMessage', contents: [{type: 'textPart', text: 'the query of a duplicate'}]}],
		}).replace(
			/\}$/,
			`,"type":"startRun","runId":"duplicaterun000000000000","initialCheckpoint":${json(checkpoint(1, 2, 'init', 'duplicaterun000000000000'))}}`,
		),
	);
	add(
		json({...head('startGeneration', 3), messages: history(3)}).replace(
			/\}$/,
			`,"type":"callTools","toolCalls":[{"id":"call9","skillName":"s","toolName":"t","args":{"messages":${json(history(3))}}}]}`,
		),
	);
	// Whitespace JSON allows, and histories that are not arrays or are empty.
	add(json({...head('startGeneration', 3), messages: history(3)}).replace('"messages":[', '"messages" : [ '));
	add(json({...head('startGeneration', 3), messages: 'not an array', padding: filler}));
	add(json({...head('startGeneration', 3), messages: [], padding: filler}));
	// Invalid UTF-8: inside a string it decodes to U+FFFD (valid); outside a string the line is invalid.
	const inString = Buffer.from(json({...head('startGeneration', 3), messages: history(4)}));
	inString[inString.indexOf('#3') + 1] = 0xff;
	add(inString);
	const outside = Buffer.from(withHistoryTail(head('startGeneration', 3), 4, ',@]'));
	outside[outside.indexOf(',@]') + 1] = 0xff;
	add(outside);
	// A stopped run, its delegate, and a child whose events interleave.
	add(
		json({
			...head('stopRunByDelegate', 3),
			checkpoint: {...checkpoint(3, 7, 'stoppedByDelegate'), delegateTo: [{expert: {key: 'child'}, toolCallId: 'call2', toolName: 'child', query: 'help'}]},
			step: {stepNumber: 3, usage, inputMessages: history(7), newMessages: history(7).slice(5)},
		}),
	);
	add(
		json({
			...head('startRun', 1, childRunId),
			initialCheckpoint: {...checkpoint(1, 3, 'init', childRunId), delegatedBy: {expert: {key: 'coordinator'}, toolCallId: 'call2', runId}},
			inputMessages: [message(9, 'userMessage')],
		}),
	);
	add(json({...head('startStreamingRunResult', 1, childRunId)}));
	add(json({...head('streamRunResult', 1, childRunId), delta: 'child says'}));
	add(json({...head('completeStreamingRunResult', 1, childRunId), text: 'child says hi'}));
	add(
		json({
			...head('completeRun', 1, childRunId),
			checkpoint: checkpoint(1, 4, 'completed', childRunId),
			step: {stepNumber: 1, usage, newMessages: history(4)},
			text: 'child says hi',
		}),
	);
	// Pending tool calls of a checkpoint carry arguments (unknown to the schema): a history in them is cut.
	add(
		json({
			...head('stopRunByInteractiveTool', 3),
			checkpoint: {
				...checkpoint(3, 7, 'stoppedByInteractiveTool'),
				pendingToolCalls: [{id: 'call3', skillName: 'ask', toolName: 'ask', args: {messages: history(3)}}],
			},
			step: {stepNumber: 3, usage},
		}),
	);
	add(
		json({
			...head('stopRunByError', 4),
			checkpoint: checkpoint(4, 8, 'stoppedByError'),
			error: {name: 'APIError', message: 'overloaded'},
			step: {stepNumber: 4, usage},
		}),
	);

	// Streaming lines just outside the runtime's exact form: each must be judged by the plain path.
	const stream = (fields: Record<string, unknown>) => json({...head('streamRunResult', 4), ...fields});
	add(stream({delta: 'fine'}));
	add(stream({delta: 'raw tab'}).replace('raw tab', 'raw\ttab'));
	add(stream({delta: 'bad escape'}).replace('bad escape', 'bad \\q escape'));
	add(stream({delta: 'short unicode'}).replace('short unicode', 'short \\u12 unicode'));
	add(stream({delta: 'lone surrogate \ud800'}));
	add(stream({delta: 'spaced'}).replace('"delta":', '"delta" :'));
	add(stream({delta: 'extra', extra: 1}));
	add(stream({}));
	add(json({type: 'streamRunResult', id: 'reordered', runId, expertKey: 'coordinator', timestamp: 1, jobId, stepNumber: 4, delta: 'x'}));
	for (const number of ['1.5', '1e3', '01', '-0', '-', '1234567890123456', '9007199254740993', '"7"', 'null', 'true']) {
		add(stream({delta: `step ${number}`}).replace(/"stepNumber":4/, `"stepNumber":${number}`));
		add(stream({delta: `time ${number}`}).replace(/"timestamp":\d+/, `"timestamp":${number}`));
	}

	add(json({type: 'streamReasoning', id: 'no-job', runId, timestamp: 5, stepNumber: 4, delta: 'no jobId or expertKey'}));
	const badUtf8 = Buffer.from(stream({delta: 'ab'}));
	badUtf8[badUtf8.indexOf('"ab"') + 1] = 0xc3;
	add(badUtf8);
	const badUtf8Key = Buffer.from(stream({delta: 'key'}));
	badUtf8Key[badUtf8Key.indexOf('"delta"') + 2] = 0xe9;
	add(badUtf8Key);
	add(json({type: 'streamRunResult', id: 7, runId, delta: 'id not a string'}));
	add(json({type: 'streamRunResult', runId: 7, delta: 'runId not a string'}));

	// Not events at all.
	add('[1,2,3]');
	add('"just a string"');
	add('{"no":"type"}');
	add('{"type":"startGeneration"');
	add('garbage');
	add(json({...head('someFutureEvent'), messages: history(3)}));
	add(json({kind: 'run_start', runId: 'drover1', ts: 1, agentId: 'a', messages: history(3)}));
	add(json({type: 'step_started', runId: 'daemon1', ts: '2026-01-01T00:00:00Z', stepName: 's', message: 'm'}));
	// A read string whose text looks like a history key: it must reach the model untouched.
	add(
		json({
			...head('completeRun', 5),
			checkpoint: checkpoint(5, 9, 'completed'),
			step: {stepNumber: 5, usage},
			text: `all done "messages":[${'1,'.repeat(400)}1] really`,
		}),
	);

	// Framing: a byte order mark, CRLF, blank and whitespace-only lines, an overlong line, no final newline.
	const parts: Buffer[] = [Buffer.from([0xef, 0xbb, 0xbf])];
	for (const [index, line] of lines.entries()) {
		parts.push(typeof line === 'string' ? Buffer.from(line) : line);
		parts.push(Buffer.from(index % 7 === 3 ? '\r\n' : '\n'));
		if (index % 11 === 5) parts.push(Buffer.from('\n   \t \r\n'));
	}

	parts.push(Buffer.from(json({...head('startGeneration', 6), messages: history(60)}) + '\n'));
	parts.push(Buffer.from(json({...head('streamRunResult', 6), delta: 'last line, no newline'})));
	return Buffer.concat(parts);
}

/** A --max-line-bytes that makes the one 60-message line of the hostile log overlong and no other line. */
export const hostileMaxLineBytes = 40_000;
