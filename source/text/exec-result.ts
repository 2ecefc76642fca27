/*
 * Perstack's base skill answers an `exec` call with JSON in the result text: `{"output": …}` when the
 * command exited 0 (stdout and stderr, each if asked for, joined into one string), and
 * `{"error": …, "stdout"?: …, "stderr"?: …}` when it failed. Older versions answered a failure with the
 * generic tool error, `{"error": name, "message": …}`, whose message holds the command's output. The error message of a failed command is
 * Node's ("Command failed: …"), which does not carry the exit code, so a failure says only that it was
 * not 0.
 */

export type ExecResult = {ok: true; output: string} | {ok: false; error: string; stdout: string | undefined; stderr: string | undefined};

/** The exec result in `text`, or undefined when the text is not in the base skill's shape. */
export function parseExecResult(text: string): ExecResult | undefined {
	if (!text.trimStart().startsWith('{')) return undefined;
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return undefined;
	}

	if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
	const output = stringOf(value, 'output');
	const error = stringOf(value, 'error');
	if (output !== undefined && error === undefined) return {ok: true, output};
	const message = stringOf(value, 'message');
	if (error !== undefined) return {ok: false, error: message ?? error, stdout: stringOf(value, 'stdout'), stderr: stringOf(value, 'stderr')};
	return undefined;
}

function stringOf(value: object, key: string): string | undefined {
	const found: unknown = Reflect.get(value, key);
	return typeof found === 'string' ? found : undefined;
}

/** The exit status as the inspector states it. */
export function exitStatus(result: ExecResult): string {
	return result.ok ? '0' : 'non-zero (the command failed)';
}
