/** The `code` of a Node system error (`ENOENT`, `EACCES`…), if it has one. */
export function errorCode(error: unknown): unknown {
	return typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
}

export function isMissing(error: unknown): boolean {
	const code = errorCode(error);
	return code === 'ENOENT' || code === 'ENOTDIR';
}

export function describeFsError(error: unknown): string {
	switch (errorCode(error)) {
		case 'ENOENT':
			return 'no such file';
		case 'EACCES':
		case 'EPERM':
			return 'permission denied';
		case 'EISDIR':
			return 'it is a directory';
		default:
			return error instanceof Error ? error.message : String(error);
	}
}
