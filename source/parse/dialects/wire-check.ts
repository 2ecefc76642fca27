import type {Reader, WireSpec} from './wire-reader.js';

/*
 * Holds a fast reader (wire-reader.ts) to the zod schema it stands in for, by walking the built schema's
 * definition beside the reader's spec. It is run by `npm run build` (scripts/check-wire.mjs), which fails on
 * any difference, so a field added to a schema and not to its reader (or the reverse) cannot ship. zod is not
 * imported here: the schema is read as the data it is, through zod's documented `_zod.def`.
 */

type Def = {type: string; get(key: string): unknown};

function defOf(schema: unknown): Def | undefined {
	const internals: unknown = typeof schema === 'object' && schema !== null ? Reflect.get(schema, '_zod') : undefined;
	const def: unknown = typeof internals === 'object' && internals !== null ? Reflect.get(internals, 'def') : undefined;
	if (typeof def !== 'object' || def === null) return undefined;
	const type: unknown = Reflect.get(def, 'type');
	return typeof type === 'string' ? {type, get: key => Reflect.get(def, key)} : undefined;
}

function describe(spec: WireSpec): string {
	return spec.kind === 'literal' ? `literal ${JSON.stringify(spec.value)}` : spec.kind;
}

function entriesOf(value: unknown): Array<[string, unknown]> {
	return typeof value === 'object' && value !== null ? Object.entries(value) : [];
}

/** How the schema at `path` differs from the spec, as one line per difference; none when they agree. */
export function specDifferences(schema: unknown, spec: WireSpec, path: string): string[] {
	const def = defOf(schema);
	if (!def) return [`${path}: not a zod schema`];
	const differ = (schemaSide: string) => [`${path}: the schema has ${schemaSide}, the reader ${describe(spec)}`];
	switch (def.type) {
		case 'string':
		case 'number':
		case 'boolean':
		case 'unknown': {
			if (spec.kind !== def.type) return differ(def.type);
			// A check (a length, a pattern) is a rule the reader does not know.
			const checks = def.get('checks');
			return Array.isArray(checks) && checks.length > 0 ? [`${path}: the schema checks the ${def.type} further, the reader does not`] : [];
		}

		case 'literal': {
			const values = def.get('values');
			const value: unknown = Array.isArray(values) && values.length === 1 ? values[0] : undefined;
			return spec.kind === 'literal' && spec.value === value ? [] : differ(`literal ${JSON.stringify(values)}`);
		}

		case 'optional':
			return spec.kind === 'optional' ? specDifferences(def.get('innerType'), spec.of, path) : differ('optional');
		case 'nullable':
			return spec.kind === 'nullable' ? specDifferences(def.get('innerType'), spec.of, path) : differ('nullable');
		case 'record': {
			if (spec.kind !== 'record') return differ('record');
			const key = defOf(def.get('keyType'));
			const checks = key?.get('checks');
			if (key?.type !== 'string' || (Array.isArray(checks) && checks.length > 0)) return [`${path}: the schema's record keys are not any string`];
			return specDifferences(def.get('valueType'), spec.of, `${path}{}`);
		}

		case 'default': {
			if (spec.kind !== 'default') return differ('default');
			const value = def.get('defaultValue');
			const inner = specDifferences(def.get('innerType'), spec.of, path);
			return value === spec.value ? inner : [`${path}: the schema's default is ${JSON.stringify(value)}, the reader's ${JSON.stringify(spec.value)}`, ...inner];
		}

		case 'array':
			return spec.kind === 'array' ? specDifferences(def.get('element'), spec.of, `${path}[]`) : differ('array');
		case 'object': {
			if (spec.kind !== 'object') return differ('object');
			// Extra keys are left unread by both (zod strips them); a catchall would read them.
			if (def.get('catchall') !== undefined) return [`${path}: the schema reads unknown keys, the reader does not`];
			const shape = new Map(entriesOf(def.get('shape')));
			const out: string[] = [];
			for (const [key, field] of shape) {
				const fieldSpec = spec.shape[key];
				if (fieldSpec) out.push(...specDifferences(field, fieldSpec, `${path}.${key}`));
				else out.push(`${path}.${key}: in the schema, not read by the reader`);
			}

			for (const key of Object.keys(spec.shape)) if (!shape.has(key)) out.push(`${path}.${key}: read by the reader, not in the schema`);
			return out;
		}

		case 'union': {
			const options = def.get('options');
			const discriminator = def.get('discriminator');
			if (typeof discriminator === 'string') {
				if (spec.kind !== 'discriminated' || spec.key !== discriminator) return differ(`a union by ${JSON.stringify(discriminator)}`);
				const order = Array.isArray(options) ? options.map(option => literalOf(option, discriminator)) : [];
				const readerOrder = Object.keys(spec.options);
				if (order.join('\n') !== readerOrder.join('\n'))
					return [`${path}: the schema's options are ${order.join(', ')}, the reader's ${readerOrder.join(', ')}`];
				return Array.isArray(options)
					? options.flatMap((option, index) => specDifferences(option, spec.options[readerOrder[index]!]!, `${path}|${readerOrder[index]!}`))
					: [];
			}

			if (spec.kind !== 'union' || !Array.isArray(options)) return differ('union');
			// zod takes the first option that accepts a value: the order is part of the declaration.
			if (options.length !== spec.options.length) return [`${path}: the schema's union has ${options.length} options, the reader's ${spec.options.length}`];
			return spec.options.flatMap((option, index) => specDifferences(options[index], option, `${path}|${index}`));
		}

		case 'pipe': {
			const input = defOf(def.get('in'));
			if (input?.type === 'transform') {
				// z.preprocess(f, schema): f, then the schema.
				if (spec.kind !== 'preprocess') return differ('preprocess');
				const inner = specDifferences(def.get('out'), spec.of, path);
				return input.get('transform') === spec.transform ? inner : [`${path}: the schema preprocesses with another function than the reader`, ...inner];
			}

			const out = defOf(def.get('out'));
			if (spec.kind !== 'transform' || out?.type !== 'transform') return differ(out?.type === 'transform' ? 'transform' : 'pipe');
			const same = out.get('transform') === spec.transform;
			const inner = specDifferences(def.get('in'), spec.of, path);
			return same ? inner : [`${path}: the schema transforms with another function than the reader`, ...inner];
		}

		default:
			return [`${path}: the schema uses ${def.type}, which the readers do not know`];
	}
}

/** The literal an option of a discriminated union has for its discriminator. */
function literalOf(option: unknown, discriminator: string): string {
	const values = defOf(new Map(entriesOf(defOf(option)?.get('shape'))).get(discriminator))?.get('values');
	const value: unknown = Array.isArray(values) ? values[0] : undefined;
	return typeof value === 'string' ? value : '?';
}

/**
 * How a discriminated union of event schemas differs from a table of readers, one per discriminator value:
 * every option must have its reader, equal to it, and every reader its option.
 */
export function unionDifferences(union: unknown, readers: Readonly<Record<string, Reader<unknown>>>, discriminator: string): string[] {
	const def = defOf(union);
	const options = def?.get('options');
	if (def?.type !== 'union' || !Array.isArray(options)) return ['the schema is not a union'];
	const out: string[] = [];
	const seen = new Set<string>();
	for (const option of options) {
		const literal = defOf(new Map(entriesOf(defOf(option)?.get('shape'))).get(discriminator));
		const values = literal?.get('values');
		const value: unknown = Array.isArray(values) ? values[0] : undefined;
		if (typeof value !== 'string') {
			out.push(`an option of the schema has no ${discriminator} literal`);
			continue;
		}

		seen.add(value);
		const reader = readers[value];
		if (reader) out.push(...specDifferences(option, reader.spec, value));
		else out.push(`${value}: in the schema, no reader`);
	}

	for (const value of Object.keys(readers)) if (!seen.has(value)) out.push(`${value}: a reader, not in the schema`);
	return out;
}

/**
 * How a list of event types kept apart from a discriminated union (to know them without building it) differs
 * from the union's own.
 */
export function typeListDifferences(union: unknown, types: ReadonlySet<string>, discriminator: string): string[] {
	const options = defOf(union)?.get('options');
	if (!Array.isArray(options)) return ['the schema is not a union'];
	const declared = new Set<string>();
	for (const option of options) {
		const values = defOf(new Map(entriesOf(defOf(option)?.get('shape'))).get(discriminator))?.get('values');
		if (Array.isArray(values)) for (const value of values) if (typeof value === 'string') declared.add(value);
	}

	return [
		...[...declared].filter(type => !types.has(type)).map(type => `${type}: in the schema, not in the list`),
		...[...types].filter(type => !declared.has(type)).map(type => `${type}: in the list, not in the schema`),
	];
}
