/*
 * What the model was given and answered at a step, in one form for every runtime that keeps it: Perstack's step
 * end holds it in one line (its checkpoint's messages), a Claude Code transcript in the lines of the run up to the
 * step. Each runtime's reading makes this form (text/conversation.ts for Perstack's line, the Claude Code dialect's
 * conversation.ts for a transcript's lines); text/conversation.ts draws it.
 */

export type ConversationPart =
	| {kind: 'text'; text: string}
	| {kind: 'thinking'; text: string}
	| {kind: 'call'; toolName: string | undefined; callId: string | undefined; args: unknown}
	| {kind: 'result'; toolName: string | undefined; callId: string | undefined; parts: ConversationPart[]}
	/** An image, a file, or a part of a kind not known: what it is, not its bytes. */
	| {kind: 'attachment'; type: string | undefined; details: string[]};

export type ConversationMessage = {
	/** `system`, `user`, `assistant`, `tool`, or the runtime's own word for a kind not known. */
	role: string;
	/** Its contents: one text, or parts. */
	contents: string | ConversationPart[];
	/** Among the messages given, one that is new at this step (the first query, a person's answer). */
	isNewInput: boolean;
};

/** A step's token counts as its runtime reported them; a count it did not report is undefined. */
export type ConversationUsage = {
	inputTokens: number | undefined;
	outputTokens: number | undefined;
	reasoningTokens: number | undefined;
	cachedInputTokens: number | undefined;
};

export type ConversationStep =
	/** A step that ended: what the model was given, and what the step added (its answer and its tools' results). */
	| {
			kind: 'ended';
			/** What the messages were read from (`continueToNextStep`, `transcript`), shown beside where. */
			from: string | undefined;
			usage: ConversationUsage | undefined;
			given: ConversationMessage[];
			added: ConversationMessage[];
			error: string | undefined;
	  }
	/** A step still being generated: only what the model is being given. */
	| {kind: 'generating'; from: string | undefined; given: ConversationMessage[]}
	/** What the messages should have been read from holds none (`why` says so). */
	| {kind: 'none'; from: string | undefined; why: string};
