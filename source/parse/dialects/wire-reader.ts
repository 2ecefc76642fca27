/*
 * Readers of parsed JSON built without zod, each carrying what it accepts as data (`spec`), so that the build
 * can hold a fast reader to the zod schema it stands in for (wire-check.ts, run by scripts/check-wire.mjs).
 * Each combinator does what the zod construct of the same name does, and no more:
 *
 *   string, number, boolean, unknown    z.string(), z.number(), z.boolean(), z.unknown()
 *   literal(v)                           z.literal(v)
 *   optional(r), nullable(r)             r.optional(): undefined stays undefined; r.nullable(): null stays null
 *   nullish(r)                           r.nullish(), which is r.nullable().optional()
 *   withDefault(r, v)                    r.default(v): undefined becomes v
 *   array(r), object({...}), union(...)  z.array, z.object (extra keys not read), z.union
 *   record(r)                            z.record(z.string(), r)
 *   byKey(key, {value: r, ...})          z.discriminatedUnion(key, [...]), its options in the same order
 *   transform(r, f)                      r.transform(f), with the very same function f
 *   preprocess(f, r)                     z.preprocess(f, r), likewise
 *
 * A reader throws `invalid` for anything the schema would reject; it may also throw it for what the schema
 * would accept (a union only tries the first option whose kind fits), since then the schema reads the value.
 */

/** What a reader accepts: the shape of the zod schema it must equal. */
export type WireSpec =
	| {kind: 'string'}
	| {kind: 'number'}
	| {kind: 'boolean'}
	| {kind: 'unknown'}
	| {kind: 'literal'; value: string}
	| {kind: 'optional'; of: WireSpec}
	| {kind: 'nullable'; of: WireSpec}
	| {kind: 'record'; of: WireSpec}
	| {kind: 'discriminated'; key: string; options: Readonly<Record<string, WireSpec>>}
	| {kind: 'preprocess'; of: WireSpec; transform: (value: never) => unknown}
	| {kind: 'default'; of: WireSpec; value: string}
	| {kind: 'array'; of: WireSpec}
	| {kind: 'object'; shape: Readonly<Record<string, WireSpec>>}
	| {kind: 'union'; options: readonly WireSpec[]}
	| {kind: 'transform'; of: WireSpec; transform: (value: never) => unknown};

export type Reader<T> = {
	readonly spec: WireSpec;
	/** Whether a value could be accepted, looking at its kind only (a union picks its option by this). */
	readonly fits: (value: unknown) => boolean;
	readonly read: (value: unknown) => T;
};

export type ReaderOutput<R> = R extends Reader<infer T> ? T : never;

/** Thrown (and caught by the fast reader's caller) when the value is not what the schema accepts. */
export const invalid = new Error('not valid for the schema');

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const anything = () => true;

export const string: Reader<string> = {
	spec: {kind: 'string'},
	fits: value => typeof value === 'string',
	read(value) {
		if (typeof value !== 'string') throw invalid;
		return value;
	},
};

/** z.number(): a finite number (JSON.parse gives Infinity for `1e999`, which zod refuses). */
export const number: Reader<number> = {
	spec: {kind: 'number'},
	fits: value => typeof value === 'number',
	read(value) {
		if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid;
		return value;
	},
};

export const boolean: Reader<boolean> = {
	spec: {kind: 'boolean'},
	fits: value => typeof value === 'boolean',
	read(value) {
		if (typeof value !== 'boolean') throw invalid;
		return value;
	},
};

export const unknown: Reader<unknown> = {spec: {kind: 'unknown'}, fits: anything, read: value => value};

export function literal<T extends string>(expected: T): Reader<T> {
	return {
		spec: {kind: 'literal', value: expected},
		fits: value => value === expected,
		read(value) {
			if (value !== expected) throw invalid;
			return expected;
		},
	};
}

export function optional<T>(reader: Reader<T>): Reader<T | undefined> {
	const {read, fits} = reader;
	return {
		spec: {kind: 'optional', of: reader.spec},
		fits: value => value === undefined || fits(value),
		read: value => (value === undefined ? undefined : read(value)),
	};
}

export function nullable<T>(reader: Reader<T>): Reader<T | null> {
	const {read, fits} = reader;
	return {spec: {kind: 'nullable', of: reader.spec}, fits: value => value === null || fits(value), read: value => (value === null ? null : read(value))};
}

export function nullish<T>(reader: Reader<T>): Reader<T | null | undefined> {
	return optional(nullable(reader));
}

export function withDefault<T extends string>(reader: Reader<T>, fallback: T): Reader<T> {
	const {read, fits} = reader;
	return {
		spec: {kind: 'default', of: reader.spec, value: fallback},
		fits: value => value === undefined || fits(value),
		read: value => (value === undefined ? fallback : read(value)),
	};
}

export function array<T>(reader: Reader<T>): Reader<T[]> {
	const {read} = reader;
	return {
		spec: {kind: 'array', of: reader.spec},
		fits: value => Array.isArray(value),
		read(value) {
			if (!Array.isArray(value)) throw invalid;
			const out: T[] = [];
			for (const element of value) out.push(read(element));
			return out;
		},
	};
}

type Shape = Readonly<Record<string, Reader<unknown>>>;
type ObjectOutput<S extends Shape> = {[K in keyof S]: ReaderOutput<S[K]>};

export function object<S extends Shape>(shape: S): Reader<ObjectOutput<S>> {
	const keys = Object.keys(shape);
	const readers = keys.map(key => shape[key]!.read);
	const spec: Record<string, WireSpec> = {};
	for (const key of keys) spec[key] = shape[key]!.spec;
	// Written out on its first read: a load reads one or two dialects, and the other dialects' shapes (some 90 in
	// all) would cost their compiling at every start.
	let read: ObjectRead = value => {
		read = objectReadOf(keys, readers) ?? loopedObjectRead(keys, readers);
		return read(value);
	};
	// The compiler cannot follow a loop over keys: the output has exactly the shape's keys, each from its own
	// reader, which is what ObjectOutput says.
	return {spec: {kind: 'object', shape: spec}, fits: isRecord, read: value => read(value) as ObjectOutput<S>};
}

type FieldRead = (value: unknown) => unknown;
type ObjectRead = (value: unknown) => Record<string, unknown>;

/**
 * An object's reader written out for its shape: `{"a": readers[0](value["a"]), …}`, made once per shape when the
 * schema's reader is built, from the shape's own keys (never from input). Each such function has its own type
 * feedback, so its loads and stores name one property each and its output has one hidden class from the start;
 * the loop over keys below is one function for every shape, whose keyed loads and stores see every shape's keys
 * (megamorphic) and whose output grows a key at a time. The two give the same object: the same keys in the same
 * order, each read by the same reader, in the same order. Undefined where code cannot be made from text (node's
 * --disallow-code-generation-from-strings) or a key would mean something else in a literal (`__proto__`).
 */
function objectReadOf(keys: readonly string[], readers: readonly FieldRead[]): ObjectRead | undefined {
	if (keys.includes('__proto__')) return undefined;
	const fields = keys.map((key, index) => `${JSON.stringify(key)}: readers[${index}](value[${JSON.stringify(key)}])`);
	try {
		// The factory's text is the shape's keys (quoted by JSON.stringify) and indexes: nothing a line wrote.
		const factory = new Function(
			'readers',
			'isRecord',
			'invalid',
			`return function read(value) { if (!isRecord(value)) throw invalid; return {${fields.join(', ')}}; };`,
		) as (readers: readonly FieldRead[], isObject: typeof isRecord, refused: Error) => ObjectRead;
		return factory(readers, isRecord, invalid);
	} catch {
		return undefined;
	}
}

function loopedObjectRead(keys: readonly string[], readers: readonly FieldRead[]): ObjectRead {
	return value => {
		if (!isRecord(value)) throw invalid;
		const out: Record<string, unknown> = {};
		for (let index = 0; index < keys.length; index++) {
			const key = keys[index]!;
			out[key] = readers[index]!(value[key]);
		}

		return out;
	};
}

/** z.union: the first option that accepts the value. Here, the first whose kind fits, or none. */
export function union<A, B>(first: Reader<A>, second: Reader<B>): Reader<A | B> {
	return {
		spec: {kind: 'union', options: [first.spec, second.spec]},
		fits: value => first.fits(value) || second.fits(value),
		read(value) {
			if (first.fits(value)) return first.read(value);
			return second.read(value);
		},
	};
}

export function transform<I, T>(reader: Reader<I>, apply: (value: I) => T): Reader<T> {
	const {read} = reader;
	return {spec: {kind: 'transform', of: reader.spec, transform: apply}, fits: reader.fits, read: value => apply(read(value))};
}

/** z.record(z.string(), r): every own key but `__proto__` (which zod leaves out), each value read by `r`. */
export function record<T>(reader: Reader<T>): Reader<Record<string, T>> {
	const {read} = reader;
	return {
		spec: {kind: 'record', of: reader.spec},
		fits: isRecord,
		read(value) {
			if (!isRecord(value)) throw invalid;
			const out: Record<string, T> = {};
			for (const key of Object.keys(value)) if (key !== '__proto__') out[key] = read(value[key]);
			return out;
		},
	};
}

type Options = Readonly<Record<string, Reader<unknown>>>;
type OptionOutput<O extends Options> = {[K in keyof O]: ReaderOutput<O[K]>}[keyof O];

/**
 * z.discriminatedUnion(key, options): the option named by the value's `key`. `options` is keyed by each option's
 * literal, in the schema's order; each option is an object reader whose `key` is that literal.
 */
export function byKey<O extends Options>(key: string, options: O): Reader<OptionOutput<O>> {
	const specs: Record<string, WireSpec> = {};
	// By a Map rather than the object's own keys: a discriminator JSON.parse made is a string no property name is
	// (not internalised), and looking one up as a key costs V8 a search of its string table, on every line.
	const readers = new Map<string, Reader<unknown>['read']>();
	for (const [value, option] of Object.entries(options)) {
		specs[value] = option.spec;
		readers.set(value, option.read);
	}

	return {
		spec: {kind: 'discriminated', key, options: specs},
		fits: isRecord,
		read(value) {
			if (!isRecord(value)) throw invalid;
			const discriminator = value[key];
			const read = typeof discriminator === 'string' ? readers.get(discriminator) : undefined;
			if (read === undefined) throw invalid;
			// The option of the discriminator gives its own output, one of the union's.
			return read(value) as OptionOutput<O>;
		},
	};
}

export function preprocess<T>(apply: (value: unknown) => unknown, reader: Reader<T>): Reader<T> {
	const {read} = reader;
	return {spec: {kind: 'preprocess', of: reader.spec, transform: apply}, fits: value => reader.fits(apply(value)), read: value => read(apply(value))};
}
