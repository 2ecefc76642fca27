// Fails the build when the Perstack fast reader (source/parse/dialects/perstack/fast-reader.ts) differs in
// any field from the zod schema it stands in for (schema.ts): see source/parse/dialects/wire-check.ts.
import {perstackReaders} from '../dist/parse/dialects/perstack/fast-reader.js';
import {perstackSchemas} from '../dist/parse/dialects/perstack/schema.js';
import {unionDifferences} from '../dist/parse/dialects/wire-check.js';

const differences = unionDifferences(perstackSchemas().event, perstackReaders, 'type');
if (differences.length > 0) {
	process.stderr.write(`check-wire: the Perstack fast reader and schema differ:\n${differences.map(line => `  ${line}\n`).join('')}`);
	process.exit(1);
}
