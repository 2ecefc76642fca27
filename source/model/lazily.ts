/**
 * A value built on first use, then kept: a constant that costs too much to make as its module loads (an
 * `Intl.Segmenter`, the RGI emoji expression, zod and the schemas built from it) and that most runs never need.
 * It is not state: it never changes once made, and nothing can tell whether it was made but the time it took.
 * How perscope keeps module-level values: docs/architecture.md, "No module-level state outside slices/".
 */
export function lazily<T>(build: () => T): () => T {
	let built: {value: T} | undefined;
	return () => (built ??= {value: build()}).value;
}
