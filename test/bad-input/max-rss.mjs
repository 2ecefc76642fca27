// Runs the built CLI inside this process and reports its peak resident set size on stderr when it exits,
// so a test can see how much memory a run took. Usage: node max-rss.mjs [perscope arguments…]
process.on('exit', () => {
	process.stderr.write(`perscope-test-max-rss-kb=${process.resourceUsage().maxRSS}\n`);
});
// cli.js reads its arguments from process.argv.slice(2): drop this script's own path, keep a placeholder.
process.argv.splice(1, 1, 'perscope');
await import('../../dist/bin/perscope.js');
