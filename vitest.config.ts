import {defineConfig} from 'vitest/config';

export default defineConfig({
	test: {
		include: ['source/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
		// End-to-end tests drive real processes in real terminals; they wait on content, not on fixed sleeps.
		testTimeout: 30_000,
		hookTimeout: 30_000,
	},
});
