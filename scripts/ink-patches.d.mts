// Types for scripts/ink-patches.mjs (its test is TypeScript).
import type {Plugin} from 'esbuild';

export const inkPatches: ReadonlyArray<{file: string; patch: string}>;
export function applyPatch(source: string, patchText: string, patchName: string): string;
export function inkPatchPlugin(inkDir: string): {applied: () => string[]; plugin: Plugin};
