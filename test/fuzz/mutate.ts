import fc from 'fast-check';
import {binaryUnit} from '../helpers/binary-unit.js';
import {daemonEventTypes} from '../../source/parse/dialects/daemon/schema.js';
import {droverEventKinds} from '../../source/parse/dialects/drover/schema.js';
import {perstackEventTypes} from '../../source/parse/dialects/perstack/fast-reader.js';

/*
 * Mutations of NDJSON lines, the way logs really go wrong: a flipped byte, a line cut short, a field a
 * runtime stopped sending or sends with another type, an event type renamed, lines that arrive twice or
 * in another order, ids that collide across runs (which is how parent cycles and duplicate ids happen).
 * Positions are drawn as plain naturals and reduced modulo the size at hand, so shrinking stays simple.
 */

export type Mutation =
	| {kind: 'flipByte'; line: number; at: number; byte: number}
	| {kind: 'truncate'; line: number; at: number}
	| {kind: 'deleteField'; line: number; pick: number}
	| {kind: 'retypeField'; line: number; pick: number; value: unknown}
	| {kind: 'renameType'; line: number; pick: number}
	| {kind: 'shareId'; line: number; pick: number; from: number}
	| {kind: 'move'; line: number; to: number}
	| {kind: 'duplicate'; line: number; to: number}
	| {kind: 'insert'; line: number; text: string};

const eventTypes = [...perstackEventTypes, ...droverEventKinds, ...daemonEventTypes, 'someFutureEvent'];

/** Values a runtime might send where another type was expected, including the awkward numeric ones. */
const oddValues: unknown[] = [
	null,
	0,
	-1,
	-1e308,
	1e308,
	Number.MAX_SAFE_INTEGER,
	0.5,
	'NaN',
	'Infinity',
	'-0',
	'',
	'123',
	'1e999',
	'not a number',
	true,
	false,
	[],
	{},
	[1, 'two', null],
	{nested: {deeper: ['x']}},
	'\u001B[31mred\u001B[0m\u001B]0;title\u0007',
	'\u009B2J\u202Ebidi',
];

const oddValue = fc.constantFrom(...oddValues);

/** Text that is not an event: garbage, fragments, other JSON values. */
const insertedText = fc.oneof(
	fc.constantFrom(
		'',
		'   ',
		'not json',
		'{',
		'}',
		'[]',
		'null',
		'"a string"',
		'42',
		'{"type":',
		'{"kind":"turn_start"}',
		'\u0000\u0001\u0002',
		'{"type":"startRun"}',
	),
	fc.string({unit: binaryUnit, maxLength: 40}),
);

export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
	fc.record({kind: fc.constant('flipByte' as const), line: fc.nat(), at: fc.nat(), byte: fc.integer({min: 0, max: 255})}),
	fc.record({kind: fc.constant('truncate' as const), line: fc.nat(), at: fc.nat()}),
	fc.record({kind: fc.constant('deleteField' as const), line: fc.nat(), pick: fc.nat()}),
	fc.record({kind: fc.constant('retypeField' as const), line: fc.nat(), pick: fc.nat(), value: oddValue}),
	fc.record({kind: fc.constant('renameType' as const), line: fc.nat(), pick: fc.nat()}),
	fc.record({kind: fc.constant('shareId' as const), line: fc.nat(), pick: fc.nat(), from: fc.nat()}),
	fc.record({kind: fc.constant('move' as const), line: fc.nat(), to: fc.nat()}),
	fc.record({kind: fc.constant('duplicate' as const), line: fc.nat(), to: fc.nat()}),
	fc.record({kind: fc.constant('insert' as const), line: fc.nat(), text: insertedText}),
);

type Slot = {holder: Record<string, unknown> | unknown[]; key: string | number};

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every place in a JSON value that holds a value, outermost first, up to a bound. */
function slots(value: unknown, out: Slot[] = [], limit = 2000): Slot[] {
	const pending: unknown[] = [value];
	while (pending.length > 0 && out.length < limit) {
		const current = pending.shift();
		if (Array.isArray(current)) {
			current.forEach((item, index) => {
				out.push({holder: current, key: index});
				pending.push(item);
			});
		} else if (isRecord(current)) {
			for (const [key, item] of Object.entries(current)) {
				out.push({holder: current, key});
				pending.push(item);
			}
		}
	}

	return out;
}

function read(slot: Slot): unknown {
	return Array.isArray(slot.holder) ? slot.holder[Number(slot.key)] : slot.holder[String(slot.key)];
}

function write(slot: Slot, value: unknown): void {
	if (Array.isArray(slot.holder)) slot.holder[Number(slot.key)] = value;
	else slot.holder[String(slot.key)] = value;
}

function remove(slot: Slot): void {
	if (Array.isArray(slot.holder)) slot.holder.splice(Number(slot.key), 1);
	else delete slot.holder[String(slot.key)];
}

function parse(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

const idKey = /(^id$|Id$)/;

/** Every id-like string in the corpus, for making ids collide across lines and files. */
function idsOf(lines: string[]): string[] {
	const ids = new Set<string>();
	for (const line of lines) {
		const value = parse(line);
		for (const slot of slots(value, [], 300)) {
			const found = read(slot);
			if (typeof slot.key === 'string' && idKey.test(slot.key) && typeof found === 'string') ids.add(found);
		}
	}

	return [...ids];
}

/** Applies the mutations in order; each one that does not apply (no such field, not JSON) is a no-op. */
export function mutate(original: string[], mutations: Mutation[]): Buffer[] {
	// Lines stay bytes so a flipped byte reaches the splitter as it is, invalid UTF-8 included.
	const lines = original.map(line => Buffer.from(line));
	if (lines.length === 0) return lines;
	const ids = idsOf(original);
	const editJson = (line: number, edit: (value: unknown) => boolean) => {
		const index = line % lines.length;
		const value = parse(lines[index]!.toString('utf8'));
		if (value === undefined) return;
		if (edit(value)) lines[index] = Buffer.from(JSON.stringify(value));
	};

	for (const mutation of mutations) {
		if (lines.length === 0) break;
		switch (mutation.kind) {
			case 'flipByte': {
				const index = mutation.line % lines.length;
				const bytes = Buffer.from(lines[index]!);
				if (bytes.length === 0) break;
				bytes[mutation.at % bytes.length] = mutation.byte;
				lines[index] = bytes;
				break;
			}

			case 'truncate': {
				const index = mutation.line % lines.length;
				const line = lines[index]!;
				// A cut can fall inside a multi-byte character, as a killed writer leaves it.
				lines[index] = line.subarray(0, mutation.at % Math.max(1, line.length));
				break;
			}

			case 'deleteField':
				editJson(mutation.line, value => {
					const all = slots(value);
					if (all.length === 0) return false;
					remove(all[mutation.pick % all.length]!);
					return true;
				});
				break;
			case 'retypeField':
				editJson(mutation.line, value => {
					const all = slots(value);
					if (all.length === 0) return false;
					write(all[mutation.pick % all.length]!, structuredClone(mutation.value));
					return true;
				});
				break;
			case 'renameType':
				editJson(mutation.line, value => {
					if (!isRecord(value)) return false;
					const type = eventTypes[mutation.pick % eventTypes.length]!;
					if ('kind' in value) value['kind'] = type;
					else value['type'] = type;
					return true;
				});
				break;
			case 'shareId':
				editJson(mutation.line, value => {
					const all = slots(value).filter(slot => typeof slot.key === 'string' && idKey.test(slot.key) && typeof read(slot) === 'string');
					if (all.length === 0 || ids.length === 0) return false;
					write(all[mutation.pick % all.length]!, ids[mutation.from % ids.length]);
					return true;
				});
				break;
			case 'move': {
				const [line] = lines.splice(mutation.line % lines.length, 1);
				lines.splice(mutation.to % (lines.length + 1), 0, line!);
				break;
			}

			case 'duplicate': {
				const line = lines[mutation.line % lines.length]!;
				lines.splice(mutation.to % (lines.length + 1), 0, line);
				break;
			}

			case 'insert':
				lines.splice(mutation.line % (lines.length + 1), 0, Buffer.from(mutation.text));
				break;
		}
	}

	return lines;
}

export function toBytes(lines: Buffer[], crlf: boolean): Buffer {
	const end = Buffer.from(crlf ? '\r\n' : '\n');
	return Buffer.concat(lines.flatMap(line => [line, end]));
}
