import type {Activity} from '../model/state.js';

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

/** JSON.stringify that cannot throw on a pathological value (deeply nested tool arguments). */
export function activityJsonLine(activity: Activity): string {
	try {
		return JSON.stringify(activityJson(activity));
	} catch {
		const {args: _args, ...shallow} = activityJson(activity);
		return JSON.stringify({...shallow, args: '[too deep to serialise]'});
	}
}
