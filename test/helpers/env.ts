/** Sets environment variables (the fast path's switches, say); returns a function that puts back what they were. */
export function setEnv(values: Record<string, string>): () => void {
	const saved = new Map(Object.keys(values).map(name => [name, process.env[name]]));
	Object.assign(process.env, values);
	return () => {
		for (const [name, value] of saved) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
	};
}

/** Runs `body` with the variables set, and puts them back however it ends. */
export async function withEnv<T>(values: Record<string, string>, body: () => Promise<T>): Promise<T> {
	const restore = setEnv(values);
	try {
		return await body();
	} finally {
		restore();
	}
}
