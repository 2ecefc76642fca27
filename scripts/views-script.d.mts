// Types for scripts/views-script.mjs (its test is TypeScript).
export function splitViewsChunk(chunkPath: string, root: string): void;
export function toScript(source: string, fileName: string): {script: string; staticSpecifiers: string[]; exported: string[]};
export function staleBindings(source: string, readChunk: (specifier: string) => string): string[];
export function writeCache(
	chunkPath: string,
	cachePath: string,
	root: string,
	env?: NodeJS.ProcessEnv,
	warn?: (text: string) => void,
): 'drawn' | 'top level';
