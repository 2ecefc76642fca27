import {constants} from 'node:os';

/**
 * The exit code a shell reports for a finished child: its own code, or 128 + the number of the signal that
 * killed it, so `perscope -- cmd; echo $?` reads the same as running `cmd` alone.
 */
export function shellExitCode(code: number | null, signal: string | null): number {
	if (code !== null) return code;
	if (signal === null) return 1;
	const number: unknown = Reflect.get(constants.signals, signal);
	return typeof number === 'number' ? 128 + number : 1;
}
