// Preloaded into the CLI by test/otlp/hostile.test.ts (NODE_OPTIONS=--require): every host name under .invalid
// is not found, as a resolver would say, without asking one. The tests reach no network but 127.0.0.1.
const dns = require('node:dns');
const lookup = dns.lookup;
dns.lookup = function (hostname, options, callback) {
	const done = typeof options === 'function' ? options : callback;
	if (typeof hostname === 'string' && hostname.endsWith('.invalid')) {
		const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {code: 'ENOTFOUND', errno: -3008, syscall: 'getaddrinfo', hostname});
		process.nextTick(done, error);
		return {};
	}

	return lookup.apply(this, arguments);
};
