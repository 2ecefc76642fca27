/*
 * Replay speeds, kept apart from the replay itself so the command line can check --replay before the
 * parsing and model code is loaded.
 */

/** A pause longer than this in the log is cut to this, divided by the speed. */
export const defaultMaxGapMs = 2000;

/** The speeds `+` and `-` step through. */
export const replaySpeeds = [0.25, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] as const;

/** `--replay=SPEED`: a positive number, `10` or `10x`; undefined when it is not one. */
export function parseReplaySpeed(text: string): number | undefined {
	const match = /^\s*(\d+(?:\.\d*)?|\.\d+)x?\s*$/i.exec(text);
	const speed = match ? Number(match[1]) : Number.NaN;
	return Number.isFinite(speed) && speed > 0 ? speed : undefined;
}

/** The next speed up (`+`, direction 1) or down (`-`, direction -1) from `speed`, staying at the ends. */
export function nextSpeed(speed: number, direction: 1 | -1): number {
	if (direction === 1) return replaySpeeds.find(candidate => candidate > speed) ?? replaySpeeds[replaySpeeds.length - 1]!;
	for (let i = replaySpeeds.length - 1; i >= 0; i--) if (replaySpeeds[i]! < speed) return replaySpeeds[i]!;
	return replaySpeeds[0];
}
