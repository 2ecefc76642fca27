import {eastAsianWidth} from 'get-east-asian-width';
import {lazily} from '../../model/lazily.js';

/*
 * The columns one grapheme cluster takes, by string-width 8's rules, which are how terminals draw clusters:
 * a cluster with nothing visible takes none; an emoji (RGI, or a ZWJ sequence of pictographs, or a keycap)
 * takes two; modern Hangul jamo make syllables of two; anything else takes its first visible character's East
 * Asian Width, plus that of spacing marks and halfwidth/fullwidth forms after it.
 *
 * Why not string-width itself: importing it builds its `\p{RGI_Emoji}` expression (a property of strings,
 * 13-18 ms here) and a segmenter (~9 ms), ~30 ms of every start of the viewer before its first frame, though
 * most text never needs either. Here a single character, and one with VS16, is told from code point
 * properties, and the emoji expression is built the first time another cluster of several characters is
 * measured. The tests hold the result equal to string-width's on any text, and on every code point alone.
 */

const eastAsian = {ambiguousAsWide: false};
const firstVisible = /[^\p{Default_Ignorable_Code_Point}\p{Control}\p{Format}\p{Nonspacing_Mark}\p{Enclosing_Mark}\p{Surrogate}]/u;
/** Alone, a character is an RGI emoji when it is presented as emoji by default; a lone regional indicator is not. */
const emojiAlone = /^(?!\p{Regional_Indicator})\p{Emoji_Presentation}$/u;
/**
 * A character and VS16 (emoji presentation) is an RGI emoji exactly when the character is an emoji shown as text by
 * default and not an emoji component (a digit, a skin tone, a regional indicator…); the test checks every one.
 */
const presentedAsEmoji = /^(?!\p{Emoji_Presentation}|\p{Emoji_Component})\p{Emoji}\uFE0F$/u;
const keycap = /^[\d#*]\u20E3$/;
const pictograph = /\p{Extended_Pictographic}/gu;
const spacingMark = /\p{Spacing_Mark}/u;
const rgiEmoji = lazily(() => new RegExp('^\\p{RGI_Emoji}$', 'v'));

/** Columns of `cluster`, one grapheme cluster (escape sequences are not stripped: they count as what they show). */
export function clusterColumns(cluster: string): number {
	const start = cluster.search(firstVisible);
	if (start === -1) return 0;
	if (isOneCodePoint(cluster)) return emojiAlone.test(cluster) ? 2 : eastAsianWidth(cluster.codePointAt(0)!, eastAsian);
	if (isWideEmoji(cluster)) return 2;
	const visible = cluster.slice(start);
	return hangulColumns(visible) ?? visibleColumns(visible);
}

function isOneCodePoint(text: string): boolean {
	return text.length === 1 || (text.length === 2 && text.codePointAt(0)! > 0xff_ff);
}

/**
 * An RGI emoji, or a sequence terminals draw as one anyway: a ZWJ sequence of two pictographs or more, or a
 * keycap. Those, and a character with VS16 (the commonest, as in `✏️`), are told without the RGI expression,
 * which costs ~30 ms to build and first run.
 */
function isWideEmoji(cluster: string): boolean {
	if (cluster.length <= 50 && (keycap.test(cluster) || (cluster.includes('\u200D') && (cluster.match(pictograph)?.length ?? 0) >= 2))) return true;
	if (cluster.endsWith('\uFE0F') && isOneCodePoint(cluster.slice(0, -1))) return presentedAsEmoji.test(cluster);
	return rgiEmoji().test(cluster);
}

const isLeading = (code: number | undefined): boolean => code !== undefined && ((code >= 0x11_00 && code <= 0x11_5f) || (code >= 0xa9_60 && code <= 0xa9_7c));
const isVowel = (code: number | undefined): boolean => code !== undefined && ((code >= 0x11_60 && code <= 0x11_a7) || (code >= 0xd7_b0 && code <= 0xd7_c6));
const isTrailing = (code: number | undefined): boolean => code !== undefined && ((code >= 0x11_a8 && code <= 0x11_ff) || (code >= 0xd7_cb && code <= 0xd7_fb));

/**
 * Hangul jamo: a leading consonant and a vowel (and a trailing consonant) make one syllable of two columns;
 * jamo left over add their own widths. Undefined when the cluster does not start with jamo.
 */
function hangulColumns(visible: string): number | undefined {
	const codes: number[] = [];
	for (const character of visible) if (firstVisible.test(character)) codes.push(character.codePointAt(0)!);
	let columns = 0;
	for (let at = 0; at < codes.length; at++) {
		const code = codes[at]!;
		if (!isLeading(code) && !isVowel(code) && !isTrailing(code)) {
			if (columns === 0) return undefined;
			for (const rest of codes.slice(at)) columns += eastAsianWidth(rest, eastAsian);
			return columns;
		}

		if (isLeading(code) && isVowel(codes[at + 1])) {
			columns += 2;
			at += isTrailing(codes[at + 2]) ? 2 : 1;
			continue;
		}

		columns += eastAsianWidth(code, eastAsian);
	}

	return codes.length === 0 ? undefined : columns;
}

/** The first visible character's width, and the spacing marks and halfwidth/fullwidth forms after it. */
function visibleColumns(visible: string): number {
	let columns = eastAsianWidth(visible.codePointAt(0)!, eastAsian);
	let first = true;
	for (const character of visible) {
		if (first) {
			first = false;
			continue;
		}

		if (spacingMark.test(character) || (character >= '\uFF00' && character <= '\uFFEF')) columns += eastAsianWidth(character.codePointAt(0)!, eastAsian);
	}

	return columns;
}
