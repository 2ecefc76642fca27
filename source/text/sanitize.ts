import {displayWidth} from './width/width.js';

/*
 * Every string that arrives in an event is written by something we do not control: a model, a tool, a
 * subprocess. Terminals obey what they are sent, so a tool result could move the cursor, repaint the
 * screen, retitle the window, write the clipboard (OSC 52) or plant a hyperlink (OSC 8). Worse for a
 * TUI, Ink measures text with string-width before drawing it; any character the terminal draws at a
 * different width than string-width predicts pushes a line past the edge, the terminal wraps it, and
 * Ink's redraw (which erases by line count) tears the whole frame.
 *
 * So this module rewrites everything that is not plainly printable into a visible, inert spelling.
 * The rewrite is character by character and never tries to parse escape sequences: parsing would mean
 * deciding where an attacker's sequence ends, and getting that wrong is how sanitisers leak. Replacing
 * ESC and every other control on its own makes any sequence, complete or truncated, inert, and leaves
 * its printable bytes readable for whoever is debugging the agent.
 */

export type SanitizeOptions = {
	/** Columns between tab stops. Default 4. */
	tabWidth?: number;
};

const defaultTabWidth = 4;

/*
 * The characters that are never passed through. One class, shared by the fast-path test and the
 * rewrite, so the two can never disagree about what is unsafe.
 *
 * - C0, DEL and C1: C1 matters because terminals honour U+009B as CSI and U+009D as OSC.
 * - U+00AD soft hyphen, U+115F and U+3164 Hangul fillers, U+FFA0 halfwidth Hangul filler: string-width
 *   counts them as 0 columns but terminals draw them 1–2 columns wide, so they break alignment; the
 *   fillers are also the classic way to make a name that looks blank.
 * - U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069: bidi marks, embeddings, overrides and
 *   isolates can reorder what is displayed so that it differs from what is there (Trojan Source).
 * - U+200B, U+FEFF: invisible, so they hide differences between strings that look the same.
 *   U+200C and U+200D are deliberately kept: emoji ZWJ sequences and several scripts need them.
 * - U+2028, U+2029: line breaks that most terminals do not treat as line breaks.
 * - Surrogates: with the `u` flag only unpaired halves match; they have no glyph and some writers
 *   throw or emit invalid UTF-8 for them.
 */
const unsafeClass =
	'\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u061C\\u115F\\u200B\\u200E\\u200F\\u2028\\u2029' +
	'\\u202A-\\u202E\\u2066-\\u2069\\u3164\\uFEFF\\uFFA0\\uD800-\\uDFFF';

const unsafePattern = new RegExp(`[${unsafeClass}]`, 'u');

// In block mode a plain \n is layout, not a threat, so the block fast path must let it through.
const unsafeInBlockPattern = new RegExp(`[${unsafeClass.replace('\\u0000-\\u001F', '\\u0000-\\u0009\\u000B-\\u001F')}]`, 'u');

// The rewrite leaves \t and \n in place (tabs need the line's column, which is only known once the
// whole line is rewritten) and turns every line break spelling into \n.
const rewritePattern = new RegExp(`\\r\\n?|[${unsafeClass.replace('\\u0000-\\u001F', '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F')}]`, 'gu');

// Precomputed so the hot path of a dirty log line does no number formatting.
const lowReplacements: string[] = [];
for (let code = 0; code < 0xa0; code++) {
	if (code < 0x20) {
		// Unicode Control Pictures (U+2400 block) are laid out in C0 order: ␀ ␁ … ␛ … ␟.
		lowReplacements.push(String.fromCharCode(0x2400 + code));
	} else if (code === 0x7f) {
		lowReplacements.push('\u2421');
	} else if (code >= 0x80) {
		// C1 has no control pictures; the escape spelling is unambiguous and is what a developer would grep for.
		lowReplacements.push(`\\x${code.toString(16).padStart(2, '0')}`);
	} else {
		lowReplacements.push(String.fromCharCode(code));
	}
}

function reveal(match: string): string {
	const code = match.charCodeAt(0);
	if (code === 0x0d || code === 0x2028 || code === 0x2029) {
		return '\n';
	}

	if (code < 0xa0) {
		return lowReplacements[code]!;
	}

	if (code >= 0xd800 && code <= 0xdfff) {
		return '\uFFFD';
	}

	return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

function checkedTabWidth(options: SanitizeOptions | undefined): number {
	const tabWidth = options?.tabWidth ?? defaultTabWidth;
	// A caller bug, not untrusted input: fail loudly rather than render tabs some surprising way.
	if (!Number.isInteger(tabWidth) || tabWidth < 1) {
		throw new RangeError(`tabWidth must be a positive integer, got ${String(tabWidth)}`);
	}

	return tabWidth;
}

/*
 * `line` is already rewritten and has no \n. Tab stops are measured in display columns, so CJK and
 * emoji before a tab still land the text after it on the stop. A tab is a grapheme boundary on both
 * sides, so summing the widths of the pieces between tabs equals the width of the whole prefix, and
 * a line with many tabs stays linear.
 */
function expandTabs(line: string, tabWidth: number): string {
	let tab = line.indexOf('\t');
	if (tab === -1) {
		return line;
	}

	let out = '';
	let column = 0;
	let start = 0;
	while (tab !== -1) {
		const piece = line.slice(start, tab);
		column += displayWidth(piece);
		const pad = tabWidth - (column % tabWidth);
		out += piece + ' '.repeat(pad);
		column += pad;
		start = tab + 1;
		tab = line.indexOf('\t', start);
	}

	return out + line.slice(start);
}

/*
 * What String.prototype.trim removes. Checked by code unit so a clean line costs one regex scan and
 * two comparisons, not a second scan.
 */
function isTrimmable(code: number): boolean {
	if (code <= 0x20) {
		return code === 0x20 || (code >= 0x09 && code <= 0x0d);
	}

	return (
		code === 0xa0 ||
		code === 0x1680 ||
		(code >= 0x2000 && code <= 0x200a) ||
		code === 0x2028 ||
		code === 0x2029 ||
		code === 0x202f ||
		code === 0x205f ||
		code === 0x3000 ||
		code === 0xfeff
	);
}

/**
 * True when `text` holds anything that must not reach a terminal verbatim: a control character
 * (including \t, \r and \n), an escape sequence, a bidi control, an invisible character, or an
 * unpaired surrogate. When it is false, `sanitizeBlock(text) === text`, and `sanitizeLine(text)` at
 * most trims surrounding whitespace.
 */
export function hasUnsafe(text: string): boolean {
	return unsafePattern.test(text);
}

/**
 * Sanitise text for a display that keeps line breaks (a detail pane, a transcript body). Line breaks
 * of every spelling (\r\n, \r, U+2028, U+2029) become \n; tabs are expanded; everything unsafe is
 * rewritten into a visible, inert form. Returns `text` itself when nothing needs changing.
 */
export function sanitizeBlock(text: string, options?: SanitizeOptions): string {
	const tabWidth = checkedTabWidth(options);
	if (!unsafeInBlockPattern.test(text)) {
		return text;
	}

	const rewritten = text.replace(rewritePattern, reveal);
	if (!rewritten.includes('\t')) {
		return rewritten;
	}

	return rewritten
		.split('\n')
		.map(line => expandTabs(line, tabWidth))
		.join('\n');
}

/**
 * Sanitise text for a one-line display (a list row, a status line, a headless transcript line). Each
 * run of line breaks, with the whitespace around it, becomes a single ` ↵ `, and the result is
 * trimmed; otherwise as `sanitizeBlock`. Returns `text` itself when nothing needs changing.
 */
export function sanitizeLine(text: string, options?: SanitizeOptions): string {
	const tabWidth = checkedTabWidth(options);
	if (!unsafePattern.test(text) && (text.length === 0 || (!isTrimmable(text.charCodeAt(0)) && !isTrimmable(text.charCodeAt(text.length - 1))))) {
		return text;
	}

	const rewritten = text.replace(rewritePattern, reveal);
	const lines = rewritten.split('\n');
	if (lines.length === 1) {
		return expandTabs(rewritten, tabWidth).trim();
	}

	// Indentation means nothing once lines are joined, and blank lines would only add runs of ↵.
	const kept: string[] = [];
	for (const line of lines) {
		const trimmed = expandTabs(line, tabWidth).trim();
		if (trimmed.length > 0) {
			kept.push(trimmed);
		}
	}

	return kept.join(' ↵ ');
}
