// A module loader hook that writes the URL of every package module resolved to stderr (`perscope-package <url>`),
// for tests of what a mode loads: registered with `node --import <this file>`.
import {register} from 'node:module';

register(
	'data:text/javascript,' +
		encodeURIComponent(`
export async function resolve(specifier, context, next) {
	const resolved = await next(specifier, context);
	if (resolved.url.includes('/node_modules/')) process.stderr.write('perscope-package ' + resolved.url + '\\n');
	return resolved;
}
`),
);
