import type {Key} from 'ink';
import type {Line, LineEdit} from '../view-model/line-editor.js';

/*
 * Keys map to named commands; handlers deal in commands, never in raw keys, so an overlay and the tree
 * can both claim `nav.down` and the one with the higher priority gets it.
 */

export type Command =
	| 'nav.up'
	| 'nav.down'
	| 'nav.pageUp'
	| 'nav.pageDown'
	| 'nav.top'
	| 'nav.bottom'
	| 'pane.collapse'
	| 'pane.expand'
	| 'item.activate'
	| 'tree.expandAll'
	| 'tree.collapseAll'
	| 'follow.toggle'
	| 'overlay.close'
	| 'help.toggle'
	| 'diagnostics.open'
	| 'stderr.open'
	| 'skills.open'
	| 'app.quit'
	| 'app.interrupt'
	| 'app.suspend'
	| 'app.back'
	| 'confirm.yes'
	| 'search.open'
	| 'search.next'
	| 'search.previous'
	| 'filter.open'
	| 'filter.errors'
	| 'filter.clearAll'
	| 'conversation.open'
	| 'timeline.toggle'
	| 'usage.open'
	| 'inspector.export'
	| 'cockpit.answer'
	| 'cockpit.resume'
	| 'cockpit.stop'
	| 'replay.pause'
	| 'replay.faster'
	| 'replay.slower';

export function commandFor(input: string, key: Key): Command | undefined {
	if (key.ctrl && input === 'c') return 'app.interrupt';
	if (key.ctrl && input === 'z') return 'app.suspend';
	// Backspace (DEL or ^H; see keypress.tsx for how it is told from the Delete key).
	if (key.backspace && !key.ctrl && !key.meta) return 'app.back';
	if (key.upArrow) return 'nav.up';
	if (key.downArrow) return 'nav.down';
	if (key.leftArrow) return 'pane.collapse';
	if (key.rightArrow) return 'pane.expand';
	if (key.pageUp) return 'nav.pageUp';
	if (key.pageDown) return 'nav.pageDown';
	if (key.home) return 'nav.top';
	if (key.end) return 'nav.bottom';
	if (key.return) return 'item.activate';
	if (key.escape) return 'overlay.close';
	if (key.ctrl || key.meta) return undefined;
	switch (input) {
		case 'k':
			return 'nav.up';
		case 'j':
			return 'nav.down';
		case 'h':
			return 'pane.collapse';
		case 'l':
			return 'pane.expand';
		case ' ':
			// Toggles a pane or opens the inspector, except during a replay, where it pauses.
			return 'replay.pause';
		case 'e':
			return 'tree.expandAll';
		case 'E':
			return 'tree.collapseAll';
		case 'g':
			return 'nav.top';
		case 'G':
			return 'nav.bottom';
		case 'f':
			return 'follow.toggle';
		case '?':
			return 'help.toggle';
		case 'd':
			return 'diagnostics.open';
		case 's':
			return 'stderr.open';
		case 'S':
			return 'skills.open';
		case 'q':
			return 'app.quit';
		case 'y':
			return 'confirm.yes';
		case '/':
			return 'search.open';
		case 'n':
			return 'search.next';
		case 'N':
			return 'search.previous';
		case ':':
			return 'filter.open';
		case 'x':
			return 'filter.errors';
		case 'c':
			return 'conversation.open';
		case 'C':
			return 'filter.clearAll';
		case 't':
			return 'timeline.toggle';
		case 'u':
			return 'usage.open';
		case 'o':
			return 'inspector.export';
		case 'a':
			return 'cockpit.answer';
		case 'R':
			return 'cockpit.resume';
		case 'K':
			return 'cockpit.stop';
		case '+':
		case '=':
			return 'replay.faster';
		case '-':
			return 'replay.slower';
		default:
			return undefined;
	}
}

/** The key list shown by the help overlay and the README. */
export const keyHelp: Array<[keys: string, what: string]> = [
	['↑/↓  j/k', 'move the selection'],
	['←/→  h/l', 'collapse / expand the pane or job'],
	['enter  space', 'toggle a pane or job, or open the inspector on an activity'],
	['e / E', 'expand all / collapse all (jobs too)'],
	['g / G', 'top / bottom (G resumes follow)'],
	['PgUp / PgDn', 'page up / down'],
	['f', 'toggle follow (keep the newest activity in sight)'],
	['/', 'search activity text (n / N: next / previous match, esc clears)'],
	['', 'in the inspector: find in its text, the same way'],
	[':', 'filter: type:exec expert:NAME run:ID errors step:10-20 text, -term negates'],
	['x', 'errors only, on / off'],
	['C', 'clear every filter (:, x, --filter) and the search'],
	['c', 'conversation: what the model was given and answered at the step of the activity (a run: its last step); e in it unfolds long contents'],
	['in / and :', 'edit as in a shell: ←/→ Home/End ^A ^E ^U ^K ^W; ↑/↓ history'],
	['', 'reopened, the last text is selected: typing replaces it'],
	['t', 'timeline of the job the selection is in: a row per step and what ran in it; enter goes there, c opens its conversation'],
	['u', 'token usage per expert, of the selected job (u again: all jobs)'],
	['o', 'in the inspector: write the raw event JSON to a file'],
	['enter  e / E', 'in the inspector: unfold the folded block in view / unfold all / fold all'],
	['space  + / -', 'with --replay: pause, faster / slower'],
	['a', 'answer the question a run waits on: type it, confirm the command with y'],
	['R', "in the inspector or timeline: resume from the step's checkpoint (y confirms)"],
	['K', 'stop the running command (SIGTERM, y confirms); the view stays'],
	['y', 'copy the answer or resume command (OSC 52), shown on one line'],
	['d', 'diagnostics: lines that could not be read'],
	['s', "the command's stderr (perscope -- COMMAND)"],
	['S', 'skills (MCP servers): their states over time and their stderr lines'],
	['?', 'this help'],
	['esc', 'close the inspector or overlay (in the inspector a find is cleared first)'],
	['q  Ctrl-C', 'quit (Ctrl-C first interrupts a running command)'],
	['Ctrl-Z', 'suspend to the shell (fg comes back)'],
	['backspace', 'back to the job list (perscope perstack)'],
];

/** A key with no modifier or special key set: what a plain character is. */
export const noModifiers: Key = {
	upArrow: false,
	downArrow: false,
	leftArrow: false,
	rightArrow: false,
	pageDown: false,
	pageUp: false,
	home: false,
	end: false,
	return: false,
	escape: false,
	ctrl: false,
	shift: false,
	tab: false,
	backspace: false,
	delete: false,
	meta: false,
	super: false,
	hyper: false,
	capsLock: false,
	numLock: false,
};

export type Press = {input: string; key: Key};

/**
 * The key presses in one read. Ink splits escape sequences but hands over a run of plain characters as one
 * string (key repeat, a fast typist, a paste): each character is its own press, and Enter, Backspace and
 * Ctrl-letters (Ctrl-C, Ctrl-Z, Ctrl-U…) inside the run keep their meaning.
 */
export function pressesOf(input: string, key: Key): Press[] {
	// Esc then a key in one read arrives as Alt+key (ESC-prefixed). Nothing is bound to Alt, so it is
	// what the person typed: Esc, then the key.
	if (key.meta && !key.ctrl && !key.escape && [...input].length === 1) {
		return [
			{input: '', key: {...noModifiers, escape: true}},
			{input, key: {...key, meta: false}},
		];
	}

	// Enter typed before the terminal was put in raw mode (as the viewer starts, between two screens) was turned
	// into a line feed by the terminal, which Ink does not call Enter: it is Enter.
	if (input === '\n' && !key.ctrl && !key.meta) return [{input: '\r', key: {...noModifiers, return: true}}];
	if (input.length <= 1 || key.ctrl || key.meta || commandFor(input, key) !== undefined) return [{input, key}];
	const presses: Press[] = [];
	for (const character of input) {
		if (character === '\r' || character === '\n') presses.push({input: '\r', key: {...noModifiers, return: true}});
		else if (character === '\u007F' || character === '\b') presses.push({input: '', key: {...noModifiers, backspace: true}});
		else if (isControlLetter(character)) presses.push({input: String.fromCodePoint((character.codePointAt(0) ?? 0) + 96), key: {...noModifiers, ctrl: true}});
		else presses.push({input: character, key: noModifiers});
	}

	return presses;
}

/**
 * The presses of one read after its `at`-th (pressesOf), as they were typed: what a screen that hands the
 * keyboard off at that press passes on. A read split into presses was split a character a press.
 */
export function typedAfter(input: string, key: Key, at: number): string {
	const presses = pressesOf(input, key);
	if (at + 1 >= presses.length) return '';
	// Esc then a key, read as Alt+key: the key is what follows the Esc.
	if (key.meta && !key.ctrl && !key.escape) return input;
	return [...input].slice(at + 1).join('');
}

/**
 * Whether a press types one printable character: no key of its own and no modifier but Shift (which an upper
 * case letter carries). A line being edited inserts it; a run of them read at once (a paste) can go in as one.
 */
export function isTypedCharacter(press: Press): boolean {
	const {key, input} = press;
	if (key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageDown || key.pageUp || key.home || key.end) return false;
	if (key.return || key.escape || key.ctrl || key.tab || key.backspace || key.delete || key.meta || key.super || key.hyper) return false;
	const code = input.codePointAt(0);
	return code !== undefined && input.length === String.fromCodePoint(code).length && code >= 0x20 && code !== 0x7f;
}

/** Ctrl-A … Ctrl-Z, except those that are keys of their own (Backspace, Tab, Enter). */
function isControlLetter(character: string): boolean {
	const code = character.codePointAt(0) ?? 0;
	return code >= 1 && code <= 26 && code !== 8 && code !== 9 && code !== 10 && code !== 13;
}

/** The shell's editing keys (readline's emacs bindings), as far as a terminal tells them apart. */
export function lineEditFor(input: string, key: Key, line: Line): LineEdit | undefined {
	if (key.leftArrow) return key.ctrl || key.meta ? {type: 'wordLeft'} : {type: 'left'};
	if (key.rightArrow) return key.ctrl || key.meta ? {type: 'wordRight'} : {type: 'right'};
	if (key.home) return {type: 'home'};
	if (key.end) return {type: 'end'};
	if (key.backspace) return {type: 'backspace'};
	if (key.delete) return {type: 'delete'};
	if (key.ctrl) {
		switch (input) {
			case 'a':
				return {type: 'home'};
			case 'e':
				return {type: 'end'};
			case 'b':
				return {type: 'left'};
			case 'f':
				return {type: 'right'};
			case 'u':
				return {type: 'killToStart'};
			case 'k':
				return {type: 'killToEnd'};
			case 'w':
				return {type: 'killWordBack'};
			case 'h':
				return {type: 'backspace'};
			case 'd':
				return line.text === '' ? undefined : {type: 'delete'};
			default:
				return undefined;
		}
	}

	if (key.meta || key.tab) return undefined;
	return {type: 'insert', text: input};
}
