import {readFileSync} from 'node:fs';
import {z} from 'zod';
import {priceProviders, type PriceTable} from '../query/prices.js';

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

const dollars = z.number().finite().nonnegative();

const priceFileSchema = z
	.object({
		source: z.string().optional(),
		date: z
			.string()
			.regex(/^\d{4}-\d{2}-\d{2}$/, 'a date is written YYYY-MM-DD')
			.optional(),
		models: z.record(z.string().min(1), z.object({provider: z.enum(priceProviders), input: dollars, cachedInput: dollars, output: dollars}).strict()),
	})
	.strict();

/** Why a price file cannot be used: one line for the person, and the exit code (1 unreadable, 2 wrong). */
export class PriceFileError extends Error {
	constructor(
		message: string,
		readonly exitCode: 1 | 2,
	) {
		super(message);
	}
}

/** Reads and checks a price file; throws a PriceFileError that says what is wrong and where. */
export function readPriceFile(path: string): PriceTable {
	let text: string;
	try {
		text = readFileSync(path, 'utf8');
	} catch (error) {
		const code = error instanceof Error ? Reflect.get(error, 'code') : undefined;
		throw new PriceFileError(`--prices ${path}: cannot be read${typeof code === 'string' ? ` (${code})` : ''}`, 1);
	}

	return parsePriceTable(text, path);
}

/** The table a price file's text gives, named after the file. */
export function parsePriceTable(text: string, path: string): PriceTable {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch (error) {
		throw new PriceFileError(`--prices ${path}: not JSON: ${error instanceof Error ? error.message : String(error)}`, 2);
	}

	const parsed = priceFileSchema.safeParse(json);
	if (!parsed.success) {
		const issues = parsed.error.issues.slice(0, 3).map(issue => `${issue.path.length === 0 ? 'the file' : issue.path.map(String).join('.')}: ${issue.message}`);
		const more = parsed.error.issues.length > 3 ? ` (and ${parsed.error.issues.length - 3} more)` : '';
		throw new PriceFileError(`--prices ${path}: ${issues.join('; ')}${more}`, 2);
	}

	const {source, date, models} = parsed.data;
	return {source: source ?? path, date: date ?? null, file: path, models};
}
