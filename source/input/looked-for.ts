/**
 * `look` made again at most every `everyMs`, its last answer given in between: a followed session's sub-agents' files,
 * looked for as it is read (a Codex rollout's, a Gemini CLI chat's), whose folders are read at every pass otherwise.
 */
export function atMostEvery<T>(everyMs: number, look: () => T): () => T {
	let lookedAt = Number.NEGATIVE_INFINITY;
	let found: T | undefined;
	return () => {
		const now = performance.now();
		if (now - lookedAt < everyMs) return found as T;
		lookedAt = now;
		found = look();
		return found;
	};
}
