import {closeSync, openSync, readSync} from 'node:fs';
import {z} from 'zod';
import {sanitizeLine} from '../text/sanitize.js';
import {priceProviders, type ModelPrice, type PriceTable} from '../query/prices.js';

/*
 * `--prices FILE`: a price table of one's own (negotiated prices, a model the built-in table lacks), in place
 * of the built-in one, as JSON of the table's own shape (README.md, "Cost"):
 *
 *   {"source": "our contract", "date": "2026-11-01",
 *    "models": {"claude-sonnet-4-5": {"provider": "anthropic", "input": 3, "cachedInput": 0.3, "output": 15}}}
 *
 * Prices are US dollars per million tokens; `provider` says how the model's token counts are priced
 * (query/cost.ts). Every price must be given: a missing one would be a guess.
 */

/**
 * More than any price table needs (the built-in one is 2 kB), and little enough to hold: `--prices /dev/zero`
 * or a device, a FIFO or a huge file is read up to this and no further, instead of until memory runs out.
 */
export const maxPriceFileBytes = 16 * 1024 * 1024;

/**
 * The dearest published price is a few hundred dollars per million tokens. A price far above it is a mistake
 * (another unit), and an unbounded one makes costs Infinity (1e308 × tokens): token counts are capped at
 * 2^53 (parse/dialects/common.ts), so at this bound every cost, and any sum of them, stays finite.
 */
export const maxDollarsPerMillion = 10_000;

const dollars = z.number().finite().nonnegative().max(maxDollarsPerMillion, `a price is US dollars per million tokens, at most ${maxDollarsPerMillion}`);

const modelPriceSchema = z.object({provider: z.enum(priceProviders), input: dollars, cachedInput: dollars, output: dollars}).strict();

/** YYYY-MM-DD, and a day that the calendar has (no 2026-02-30, no 9999-99-99). */
function isCalendarDate(text: string): boolean {
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
	if (!match) return false;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const date = new Date(Date.UTC(year, month - 1, day));
	return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const priceFileSchema = z
	.object({
		source: z.string().optional(),
		date: z.string().refine(isCalendarDate, 'a date is written YYYY-MM-DD, and must be a day of the calendar').optional(),
		// The models are checked one by one below: a record would be built as a plain object, where a model
		// named `__proto__` is silently dropped.
		models: z.record(z.string().min(1), z.unknown()),
	})
	.strict();

/** Why a price file cannot be used: one line for the person, and the exit code (1 unreadable, 2 wrong). */
export class PriceFileError extends Error {
	constructor(
		message: string,
		readonly exitCode: 1 | 2,
	) {
		// The message quotes the file's path, its keys and JSON.parse's view of its text: any of them may hold
		// escape sequences or bidi controls, which must not reach the terminal as they are.
		super(sanitizeLine(message.length > maxMessageLength ? `${message.slice(0, maxMessageLength)}…` : message));
	}
}

/** A message quoting a key of a megabyte would bury the terminal; one line says enough. */
const maxMessageLength = 1000;

/**
 * Reads and checks a price file; throws a PriceFileError that says what is wrong and where. At most
 * `maxPriceFileBytes` are read, whatever the path is (a FIFO, `<(…)` and a device are read to their end too,
 * as far as that).
 */
export function readPriceFile(path: string): PriceTable {
	let bytes: Buffer;
	try {
		bytes = readAtMost(path, maxPriceFileBytes + 1);
	} catch (error) {
		const code = error instanceof Error ? Reflect.get(error, 'code') : undefined;
		throw new PriceFileError(`--prices ${path}: cannot be read${typeof code === 'string' ? ` (${code})` : ''}`, 1);
	}

	if (bytes.length > maxPriceFileBytes) {
		throw new PriceFileError(`--prices ${path}: more than ${maxPriceFileBytes / 1024 / 1024} MiB, too big for a price table (read no further)`, 2);
	}

	return parsePriceTable(bytes.toString('utf8'), path);
}

/** The first `limit` bytes of a file (or less, when it ends before), read in pieces: its size is not trusted. */
function readAtMost(path: string, limit: number): Buffer {
	const fd = openSync(path, 'r');
	try {
		const buffer = Buffer.allocUnsafe(Math.min(limit, 1024 * 1024));
		const pieces: Buffer[] = [];
		let total = 0;
		while (total < limit) {
			const read = readSync(fd, buffer, 0, Math.min(buffer.length, limit - total), null);
			if (read === 0) break;
			pieces.push(Buffer.from(buffer.subarray(0, read)));
			total += read;
		}

		return Buffer.concat(pieces, total);
	} finally {
		closeSync(fd);
	}
}

/** The table a price file's text gives, named after the file. */
export function parsePriceTable(text: string, path: string): PriceTable {
	let json: unknown;
	try {
		// An editor's byte order mark is not part of the JSON.
		json = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
	} catch (error) {
		throw new PriceFileError(`--prices ${path}: not JSON: ${error instanceof Error ? error.message : String(error)}`, 2);
	}

	const parsed = priceFileSchema.safeParse(json);
	const issues: Array<{path: PropertyKey[]; message: string}> = parsed.success ? [] : [...parsed.error.issues];
	// Keyed by what the file says, so without a prototype: every name is a model, `__proto__` and `constructor` too.
	const models: Record<string, ModelPrice> = Object.create(null) as Record<string, ModelPrice>;
	// The models as the file has them: zod's record is built as a plain object, where `__proto__` goes missing.
	const fileModels: unknown = parsed.success ? Reflect.get(Object(json), 'models') : undefined;
	if (typeof fileModels === 'object' && fileModels !== null) {
		for (const [name, value] of Object.entries(fileModels)) {
			const price = modelPriceSchema.safeParse(value);
			if (price.success) models[name] = price.data;
			else issues.push(...price.error.issues.map(issue => ({path: ['models', name, ...issue.path], message: issue.message})));
		}
	}

	if (!parsed.success || issues.length > 0) {
		const shown = issues.slice(0, 3).map(issue => `${issue.path.length === 0 ? 'the file' : issue.path.map(String).join('.')}: ${issue.message}`);
		const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
		throw new PriceFileError(`--prices ${path}: ${shown.join('; ')}${more}`, 2);
	}

	const {source, date} = parsed.data;
	return {source: source ?? path, date: date ?? null, file: path, models};
}
