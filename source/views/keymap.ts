import type {Key} from 'ink';

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
	| 'app.quit'
	| 'app.interrupt'
	| 'confirm.yes'
	| 'confirm.no';

export function commandFor(input: string, key: Key): Command | undefined {
	if (key.ctrl && input === 'c') return 'app.interrupt';
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
			return 'item.activate';
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
		case 'q':
			return 'app.quit';
		case 'y':
			return 'confirm.yes';
		case 'n':
			return 'confirm.no';
		default:
			return undefined;
	}
}

/** The key list shown by the help overlay and the README. */
export const keyHelp: Array<[keys: string, what: string]> = [
	['↑/↓  j/k', 'move the selection'],
	['←/→  h/l', 'collapse / expand the pane'],
	['enter  space', 'toggle a pane, or open the inspector on an activity'],
	['e / E', 'expand all / collapse all'],
	['g / G', 'top / bottom (G resumes follow)'],
	['PgUp / PgDn', 'page up / down'],
	['f', 'toggle follow (keep the newest activity in sight)'],
	['d', 'diagnostics: lines that could not be read'],
	['s', "the command's stderr (perscope -- COMMAND)"],
	['?', 'this help'],
	['esc', 'close the inspector or overlay'],
	['q  Ctrl-C', 'quit (Ctrl-C first interrupts a running command)'],
];

const noModifiers: Key = {
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

/**
 * Commands for a run of plain characters that arrived in one read (Ink only splits escape sequences):
 * each character is its own key, and Enter and Ctrl-C keep their meaning inside the run.
 */
export function commandsForText(text: string): Command[] {
	const commands: Command[] = [];
	for (const character of text) {
		const command =
			character === '\r' || character === '\n' ? 'item.activate' : character === '\u0003' ? 'app.interrupt' : commandFor(character, noModifiers);
		if (command !== undefined) commands.push(command);
	}

	return commands;
}
