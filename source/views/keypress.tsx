import {useInput} from 'ink';
import React, {createContext, useContext, useEffect, useRef, type ReactNode} from 'react';
import {commandFor, commandsForText, type Command} from './keymap.js';

/** A handler returns true when it used the command, which stops lower-priority handlers from seeing it. */
export type CommandHandler = (command: Command) => boolean;

type Registry = {add(handler: {priority: number; handle: CommandHandler}): () => void};

const KeypressContext = createContext<Registry | undefined>(undefined);

/**
 * The one owner of keyboard input (and so of raw mode). Keys become commands, offered to handlers from
 * the highest priority down: an open overlay sees keys before the tree.
 */
export function KeypressProvider({children, active = true}: {children: ReactNode; active?: boolean}) {
	const handlers = useRef<Array<{priority: number; handle: CommandHandler}>>([]);
	const registry = useRef<Registry>({
		add(handler) {
			handlers.current = [...handlers.current, handler].sort((a, b) => b.priority - a.priority);
			return () => {
				handlers.current = handlers.current.filter(existing => existing !== handler);
			};
		},
	});

	useInput(
		(input, key) => {
			// Ink hands over a run of plain characters as one string: `kkk` from key repeat is three keys.
			const single = commandFor(input, key);
			const commands = single === undefined && input.length > 1 && !key.ctrl && !key.meta ? commandsForText(input) : single === undefined ? [] : [single];
			for (const command of commands) {
				for (const handler of handlers.current) if (handler.handle(command)) break;
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

export const priorities = {app: 0, tree: 10, overlay: 100, confirm: 200} as const;
