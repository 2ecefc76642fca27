import {useInput, useStdin, type Key} from 'ink';
import {createContext, useContext, useEffect, useRef, type ReactNode} from 'react';
import {commandFor, isTypedCharacter, pressesOf, typedAfter, type Command} from './keymap.js';

/** A handler returns true when it used the command, which stops lower-priority handlers from seeing it. */
export type CommandHandler = (command: Command) => boolean;

/**
 * Takes raw keys instead of commands while `active()`, for a line being typed (search, filter). Characters
 * typed in a row in one read (a paste) come as one `input` of several characters, with no modifier set.
 */
export type TextHandler = {active: () => boolean; handle: (input: string, key: Key) => void};

type Registry = {
	add(handler: {priority: number; handle: CommandHandler}): () => void;
	/** Adds a text handler; the newest one that is active takes the keys. Returns its removal. */
	capture(handler: TextHandler): () => void;
	/**
	 * The screen is going and another takes the keyboard (enter in the job list, backspace in a job): every key
	 * read from now on, the rest of this read included, is kept as typed for the next screen instead of handled.
	 */
	handOff(): void;
};

/**
 * What was typed after a screen handed the keyboard off and before the next one reads it: `Enter e` typed
 * together in the job list opens the job and then `e` in it, rather than losing the `e` to a list that is going.
 * The next screen puts it back in front of the keyboard's stream (putBack) before it starts reading.
 */
export type TypedAhead = {text: string};

/** Puts what was typed ahead back in front of the keyboard's stream, for the screen about to read it. */
export function putBack(stdin: NodeJS.ReadStream, typedAhead: TypedAhead | undefined): void {
	if (!typedAhead || typedAhead.text === '') return;
	stdin.unshift(typedAhead.text);
	typedAhead.text = '';
}

const KeypressContext = createContext<Registry | undefined>(undefined);

/**
 * The one owner of keyboard input (and so of raw mode). Keys become commands, offered to handlers from
 * the highest priority down: an open overlay sees keys before the tree.
 */
export function KeypressProvider({children, active = true, typedAhead}: {children: ReactNode; active?: boolean; typedAhead?: TypedAhead | undefined}) {
	const handlers = useRef<Array<{priority: number; handle: CommandHandler}>>([]);
	// A stack: an overlay's own prompt (the inspector's `/`) sits above the app's while it is mounted.
	const captures = useRef<TextHandler[]>([]);
	// Set once the keyboard is handed off: where the keys read from then on go.
	const handedOff = useRef<TypedAhead | undefined>(undefined);
	const registry = useRef<Registry>({
		handOff() {
			// Without a next screen to give them to, keys typed after it are handled here as before.
			handedOff.current = typedAhead;
		},
		capture(handler) {
			captures.current = [...captures.current, handler];
			return () => {
				captures.current = captures.current.filter(existing => existing !== handler);
			};
		},
		add(handler) {
			handlers.current = [...handlers.current, handler].sort((a, b) => b.priority - a.priority);
			return () => {
				handlers.current = handlers.current.filter(existing => existing !== handler);
			};
		},
	});

	// Ink names both the Backspace key (DEL) and the Delete key (ESC [3~) `delete`. The sequence read tells
	// them apart: this listener is added once, before useInput's, so it sees each read first.
	const {internal_eventEmitter: reads} = useStdin();
	const lastRead = useRef('');
	useEffect(() => {
		const note = (data: string) => {
			if (handedOff.current) handedOff.current.text += data;
			else lastRead.current = data;
		};

		reads.on('input', note);
		return () => {
			reads.off('input', note);
		};
	}, [reads]);

	/** When a handler has handed the keyboard off: the rest of this read, after press `at`, kept for the next screen. */
	const handOffRest = (input: string, key: Key, at: number): boolean => {
		const to = handedOff.current;
		if (!to) return false;
		to.text += typedAfter(input, key, at);
		return true;
	};

	useInput(
		(input, rawKey) => {
			// A read after the hand-off: `note` kept it for the next screen.
			if (handedOff.current) return;
			const key =
				rawKey.delete && (lastRead.current === '\u007F' || lastRead.current === '\u001B\u007F') ? {...rawKey, delete: false, backspace: true} : rawKey;
			const presses = pressesOf(input, key);
			for (let at = 0; at < presses.length; at++) {
				const press = presses[at]!;
				// Suspending works whatever is open, as it does in other full-screen programs.
				const suspend = press.key.ctrl && press.input === 'z';
				// Decided per press, from state that is current now: `/` then `vitest` in one read is a
				// search for "vitest", not a search followed by six commands.
				const capture = suspend ? undefined : captures.current.findLast(handler => handler.active());
				if (capture) {
					// The characters typed in a row go to the line as one text: a paste of 40,000 characters is one
					// edit and one search, not 40,000 of them each as long as the line (issue #34). Typing a
					// character never closes a line, so the capture that takes the first takes them all.
					let end = at + 1;
					if (isTypedCharacter(press)) while (end < presses.length && isTypedCharacter(presses[end]!)) end++;
					const text =
						end === at + 1
							? press.input
							: presses
									.slice(at, end)
									.map(typed => typed.input)
									.join('');
					capture.handle(text, end === at + 1 ? press.key : {...press.key, shift: false});
					at = end - 1;
					// Enter on a line being typed may hand the keyboard off too (the job list's `/`: enter opens the job).
					if (handOffRest(input, key, at)) return;
					continue;
				}

				const command = commandFor(press.input, press.key);
				if (command === undefined) continue;
				for (const handler of handlers.current) if (handler.handle(command)) break;
				if (handOffRest(input, key, at)) return;
			}
		},
		{isActive: active},
	);

	return <KeypressContext.Provider value={registry.current}>{children}</KeypressContext.Provider>;
}

/** Registers a command handler for as long as the component is mounted (and `enabled`). */
export function useCommands(priority: number, handle: CommandHandler, enabled = true): void {
	const registry = useContext(KeypressContext);
	const latest = useRef(handle);
	latest.current = handle;
	useEffect(() => {
		if (!registry || !enabled) return;
		return registry.add({priority, handle: command => latest.current(command)});
	}, [registry, priority, enabled]);
}

/** Hands the keyboard off to the next screen (see Registry.handOff). */
export function useHandOff(): () => void {
	const registry = useContext(KeypressContext);
	return () => registry?.handOff();
}

/** While `active()` (checked at each key press), every key goes to `handle` as raw input, and no command runs. */
export function useTextCapture(handle: TextHandler['handle'], active: () => boolean): void {
	const registry = useContext(KeypressContext);
	const latest = useRef({handle, active});
	latest.current = {handle, active};
	useEffect(() => {
		if (!registry) return;
		return registry.capture({active: () => latest.current.active(), handle: (input, key) => latest.current.handle(input, key)});
	}, [registry]);
}

export const priorities = {app: 0, tree: 10, overlay: 100, confirm: 200} as const;
