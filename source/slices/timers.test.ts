import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/*
 * The viewer's timers, in a Node process of their own: there nothing but the process's own timers wakes the event
 * loop, as in a viewer whose stream went quiet (its view store's tick at rest, no key pressed).
 */
describe("the viewer's timers", () => {
	it('run a slice soon with nothing else to wake the event loop: a filter Enter after the stream went quiet waited seconds for its next slice', () => {
		// The process is kept alive (as the viewer's terminal keeps it) by a 3 s timer; three slices in a row are
		// scheduled after a first one, as a filter's layout goes on slice after slice.
		const script = `
			const {Scheduler} = await import(${JSON.stringify(`${root}dist/slices/scheduler.js`)});
			const scheduler = new Scheduler();
			const alive = setTimeout(() => {}, 3000);
			const started = performance.now();
			let slices = 0;
			scheduler.run(() => ++slices === 4);
			const check = () => {
				if (slices < 4) return scheduler.soon(check);
				process.stdout.write(String(Math.round(performance.now() - started)));
				clearTimeout(alive);
			};
			scheduler.soon(check);
		`;
		const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {encoding: 'utf8'});
		expect(child.stderr).toBe('');
		// Nothing printed: the slices waited until the 3 s timer woke the loop, and the process ended with it.
		expect(child.stdout).toMatch(/^\d+$/);
		expect(Number(child.stdout)).toBeLessThan(1000);
	});

	it('let the process end once the scheduler is stopped, work still running: quitting never waits for it', () => {
		const script = `
			const {Scheduler} = await import(${JSON.stringify(`${root}dist/slices/scheduler.js`)});
			const scheduler = new Scheduler();
			// Work that would never end, and a retry waiting.
			scheduler.run(() => false);
			scheduler.later(() => {}, 60_000);
			setTimeout(() => scheduler.stop(), 50);
		`;
		const started = performance.now();
		const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {encoding: 'utf8', timeout: 20_000});
		expect(child.stderr).toBe('');
		expect(child.status).toBe(0);
		expect(performance.now() - started).toBeLessThan(10_000);
	});
});
