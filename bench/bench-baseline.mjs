// The benchmark's baseline: the cost of merely parsing a log. Reads FILE with split2 and JSON.parses every
// line, nothing else; prints the number of lines parsed.
import {createReadStream} from 'node:fs';
import split2 from 'split2';

const path = process.argv[2];
if (!path) {
	process.stderr.write('usage: node bench/bench-baseline.mjs FILE\n');
	process.exit(2);
}

let lines = 0;
for await (const line of createReadStream(path).pipe(split2())) {
	if (line === '') continue;
	JSON.parse(line);
	lines++;
}

process.stdout.write(`${lines}\n`);
