// Types for scripts/ink-string-width.mjs (its test is TypeScript): string-width's signature.
export default function inkStringWidth(input: string, options?: {ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean}): number;
