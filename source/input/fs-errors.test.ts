import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {describeFsError, errorCode, isMissing} from './fs-errors.js';

/* File system errors in the few words a user reads after `cannot read <path>: `. */

function systemError(code: string, message = `${code}: something went wrong`): Error {
	return Object.assign(new Error(message), {code});
}

function thrownBy(action: () => unknown): unknown {
	try {
		action();
	} catch (error) {
		return error;
	}

	throw new Error('expected the action to throw');
}

describe('errorCode', () => {
	it('reads the code of a real system error', () => {
		expect(errorCode(thrownBy(() => readFileSync('/no/such/perscope/file')))).toBe('ENOENT');
	});

	it('gives undefined for what has no code', () => {
		expect(errorCode(new Error('plain'))).toBeUndefined();
		expect(errorCode('ENOENT')).toBeUndefined();
		expect(errorCode(null)).toBeUndefined();
	});
});

describe('isMissing', () => {
	it('takes a missing file, or a path through something that is not a directory, as missing', () => {
		expect(isMissing(systemError('ENOENT'))).toBe(true);
		expect(isMissing(systemError('ENOTDIR'))).toBe(true);
	});

	it('does not take other failures as missing', () => {
		expect(isMissing(systemError('EACCES'))).toBe(false);
		expect(isMissing(new Error('ENOENT in the message only'))).toBe(false);
	});
});

describe('describeFsError', () => {
	it('says what the common errors mean in plain words', () => {
		expect(describeFsError(systemError('ENOENT'))).toBe('no such file');
		expect(describeFsError(systemError('EACCES'))).toBe('permission denied');
		expect(describeFsError(systemError('EPERM'))).toBe('permission denied');
		expect(describeFsError(systemError('EISDIR'))).toBe('it is a directory');
	});

	it('falls back to the error’s own message, or the thrown value', () => {
		expect(describeFsError(systemError('EMFILE', 'too many open files'))).toBe('too many open files');
		expect(describeFsError('disk on fire')).toBe('disk on fire');
	});
});
