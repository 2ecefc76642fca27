// Stands in for string-width 8 inside the bundled Ink (scripts/bundle-views.mjs). Ink measures, truncates and
// writes every text of every frame with it, and string-width runs Intl.Segmenter over any line that is not
// plain ASCII: a tree row starts with an emoji icon, so every row went the slow way (about a third of a
// frame of a loaded tree). perscope's own width (source/text/width.ts) gives string-width's answers (its
// tests hold it to them) a code point at a time; options it does not cover go to string-width itself.
import {stripVTControlCharacters} from 'node:util';
import stringWidth from 'string-width';
import {displayWidth} from '../source/present/width.ts';

export default function inkStringWidth(input, options = {}) {
	if (typeof input !== 'string' || input.length === 0) return 0;
	if (options.ambiguousIsNarrow === false || options.countAnsiEscapeCodes === true) return stringWidth(input, options);
	return displayWidth(input.includes('\u001B') || input.includes('\u009B') ? stripVTControlCharacters(input) : input);
}
