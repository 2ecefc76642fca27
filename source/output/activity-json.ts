import type {Activity} from '../model/state.js';
import {tooDeepToSerialise} from '../text/too-deep.js';

/**
 * The public JSON form of an activity: the seed's Activity fields plus the action's own, without the
 * viewer's bookkeeping. Strings keep their original content; JSON escaping keeps them inert.
 */
export function activityJson(activity: Activity): Record<string, unknown> {
	const {ref, seq, settled, ...rest} = activity;
	const out: Record<string, unknown> = {...rest};
	if ('result' in activity) out['result'] = activity.result ? {text: activity.result.text, error: activity.result.error ?? null} : null;
	return out;
}

/*
 * JSON escapes C0 controls but passes C1 controls (U+009B is CSI to many terminals), DEL, bidi controls
 * and invisible characters through as they are; `--json` is often read on a terminal. These characters can
 * only occur inside JSON strings, so spelling them as \uXXXX leaves the parsed value exactly the same.
 */
const jsonUnsafe = /[\u007F-\u009F\u00AD\u061C\u200B\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFEFF]/g;

function escapeForTerminal(character: string): string {
	return `\\u${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** JSON.stringify whose output is inert on a terminal and parses to the same value. */
export function jsonForTerminal(value: unknown): string {
	return terminalSafeJson(JSON.stringify(value));
}

/** JSON text (or a piece of it) made inert on a terminal, as `jsonForTerminal` makes it. */
export function terminalSafeJson(text: string): string {
	return text.replace(jsonUnsafe, escapeForTerminal);
}

/** JSON.stringify that cannot throw on a pathological value (deeply nested tool arguments). */
export function activityJsonLine(activity: Activity): string {
	try {
		return jsonForTerminal(activityJson(activity));
	} catch {
		const {args: _args, ...shallow} = activityJson(activity);
		return jsonForTerminal({...shallow, args: tooDeepToSerialise});
	}
}
