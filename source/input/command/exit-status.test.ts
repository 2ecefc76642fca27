import {constants} from 'node:os';
import {describe, expect, it} from 'vitest';
import {shellExitCode} from './exit-status.js';

/* `perscope -- cmd; echo $?` reads what a shell would report for `cmd` alone. */

describe('shellExitCode', () => {
	it('passes a child’s own exit code through, zero included', () => {
		expect(shellExitCode(0, null)).toBe(0);
		expect(shellExitCode(3, null)).toBe(3);
	});

	it('reports 128 plus the signal’s number for a child killed by a signal', () => {
		expect(shellExitCode(null, 'SIGTERM')).toBe(128 + constants.signals.SIGTERM);
		expect(shellExitCode(null, 'SIGKILL')).toBe(128 + constants.signals.SIGKILL);
		expect(shellExitCode(null, 'SIGINT')).toBe(130);
	});

	it('reports a plain failure when it cannot tell how the child ended', () => {
		expect(shellExitCode(null, null)).toBe(1);
		expect(shellExitCode(null, 'SIGNOTREAL')).toBe(1);
	});
});
