#!/usr/bin/env node
// The viewer on the hostile shapes of issue #22, for the bench: for each shape, a seeded log opened in the
// viewer in a real terminal (tmux), and
//   - the first screen (the viewer's first frame; the median of five starts) and the first frame that shows
//     the tree, from Enter;
//   - the load, until the header says the input ended;
//   - the viewer's peak RSS (VmHWM of its process, the load worker included) once loaded, and after the keys;
//   - keys during the load: `E` and `e` in turn (fold all, unfold all), each timed until a frame shows it;
//   - keys after the load, each timed from the key sent until the first frame that differs from the one
//     before it: `e`, `g`, `G`, `k`, PageUp, `E`, Enter (unfold), `/` and a query typed key by key, Enter,
//     `n`, `N`, `:` and a filter typed and entered, `c` (clear).
// Targets (#22): first screen ≤ 300 ms; every key ≤ 100 ms.
//
// `npm run bench` runs it as one of its sections; on its own:
//
//   node bench/bench-viewer-shapes.mjs [--quick] [--shape NAME:RUNS ...] [--seed N] [--keep] [--cli dist/bin/perscope.js]
//
// `--cli` measures another build's CLI (a copy of an earlier dist/, say) with the same logs and terminal.
//
// A shape is any that `generate-log --shape` knows; add one to `viewerShapes` below to have it measured.
import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {Terminal} from './bench-terminal.mjs';

/** What is measured: [shape, runs]; the query searched for and the filter typed are the same for all. */
export function viewerShapes(quick) {
	return quick
		? [
				['chain', 2000],
				['wide', 20_000],
				['tools', 50_000],
			]
		: [
				['chain', 20_000],
				['chain', 100_000],
				['wide', 200_000],
				['tools', 500_000],
			];
}

export const firstScreenTargetMs = 300;
export const keyTargetMs = 100;

const searchText = 'run-1';
const filterText = 'run-1';
const sleep = milliseconds => new Promise(resolve => setTimeout(resolve, milliseconds));
const round = value => Math.round(value);
const megabytes = kb => (kb === undefined ? null : Math.round(kb / 1024));
const quote = text => `'${text.replaceAll("'", "'\\''")}'`;
/** A frame's text without its escape sequences (colours, cursor moves), to look for words in. */
const textOf = frame => frame.replaceAll(/\u001B\[[0-9;?]*[A-Za-z]/g, '');

/**
 * Sends keys and waits for the first whole frame after them that differs from `previous`: the answer.
 * Returns [milliseconds, frame text], or [undefined, previous] when none came in `timeoutMs`.
 */
async function answer(terminal, keys, previous, timeoutMs = 60_000) {
	const from = terminal.output().length;
	const sent = terminal.keys(...keys);
	const found = await terminal.waitForFrame(frame => textOf(frame) !== previous, timeoutMs, from);
	return found === undefined ? [undefined, previous] : [found.at - sent, textOf(found.frame)];
}

/** The last whole frame received so far, as text. */
async function settledFrame(terminal) {
	// Let whatever is being drawn finish: a frame, then a quiet moment.
	let last = '';
	for (let quiet = 0; quiet < 3; ) {
		const from = terminal.output().length;
		const found = await terminal.waitForFrame(() => true, 300, from);
		if (found === undefined) quiet++;
		else {
			last = textOf(found.frame);
			quiet = 0;
		}
	}

	return last;
}

/** One shape in the viewer: first screen, load, keys during and after the load. */
export async function measureViewerShape({cli, node, repo, path, capture}) {
	const terminal = new Terminal('shape', `cd ${quote(repo)} && ${quote(node)} ${quote(cli)} ${quote(path)}`, capture);
	const result = {firstScreenMs: null, firstTreeMs: null, loadMs: null, peakRssMb: null, peakRssAfterKeysMb: null, keysDuringLoad: [], keys: {}, skipped: []};
	try {
		const started = await terminal.start();
		const first = await terminal.waitForFrame(() => true, 60_000);
		if (first) result.firstScreenMs = round(first.at - started);
		// Any pane's row, or an activity's: while following, a wide tree shows its last children, not its
		// coordinator, and one pane of many tool calls shows its last calls, its header scrolled away.
		const tree = await terminal.waitForFrame(frame => /[▸▾] expert-\d|⚡ exec /.test(textOf(frame)), 120_000);
		if (tree) result.firstTreeMs = round(tree.at - started);
		// During the load: fold all and unfold all in turn, each answered by a frame that shows it.
		let folded = false;
		while (result.keysDuringLoad.length < 10 && !terminal.output().includes(' · ended')) {
			const from = terminal.output().length;
			const sent = terminal.keys(folded ? 'e' : 'E');
			// Folded, the tree is its coordinator's row; unfolded, some pane is open (which, depends on the selection).
			const wanted = folded ? /▾ expert-\d/ : /▸ expert-0 /;
			const found = await terminal.waitForFrame(frame => wanted.test(textOf(frame)) && (folded || !/▾ expert-\d/.test(textOf(frame))), 20_000, from);
			if (found === undefined || textOf(found.frame).includes(' · ended')) break;
			result.keysDuringLoad.push(round(found.at - sent));
			folded = !folded;
			await sleep(100);
		}

		const loaded = await terminal.waitForOutput(' · ended', 600_000);
		if (loaded !== undefined) result.loadMs = round(loaded - started);
		result.peakRssMb = megabytes(terminal.peakRssKb());
		// Keys pressed during the load left the tree folded or not: fold all first, so that `e` changes the screen.
		terminal.keys('E');
		let frame = await settledFrame(terminal);
		const steps = [
			['e', ['e']],
			// Each move is measured from the other end (reached first, unmeasured), so it changes the screen
			// wherever the load left the selection (following the newest, or at the top).
			['G', ['G'], ['g']],
			['k', ['k']],
			['PageUp', ['PageUp']],
			['g', ['g'], ['G']],
			['E', ['E']],
			['Enter (unfold)', ['Enter']],
			['/', ['/']],
			...[...searchText].map((key, at) => [`search "${searchText.slice(0, at + 1)}"`, ['-l', key]]),
			['search Enter', ['Enter']],
			['n', ['n']],
			['N', ['N']],
			[':', [':']],
			...[...filterText].map((key, at) => [`filter "${filterText.slice(0, at + 1)}"`, ['-l', key]]),
			['filter Enter', ['Enter']],
			['C (clear)', ['C']],
		];
		for (const [name, keys, setup] of steps) {
			if (setup) {
				terminal.keys(...setup);
				frame = await settledFrame(terminal).then(last => last || frame);
			}

			// Without a match (`tools` has no `run-1`), `n` says so and `N` changes nothing: waiting for it measures nothing.
			if (name === 'N' && new RegExp(`/${searchText} no matches`).test(frame)) {
				result.skipped.push('N (no match)');
				continue;
			}

			const [ms, next] = await answer(terminal, keys, frame);
			result.keys[name] = ms === undefined ? null : round(ms);
			frame = next;
			await sleep(100);
			// A key may draw more than one frame (the answer, then the selection moved): start from the last.
			frame = await settledFrame(terminal).then(last => last || frame);
		}

		result.peakRssAfterKeysMb = megabytes(terminal.peakRssKb());
	} finally {
		terminal.kill();
	}

	return result;
}

/**
 * The viewer's peak RSS on a log (VmHWM of its process, the load worker included), for #33's many jobs: the viewer
 * started in tmux, left alone until its header says the input ended (or `timeoutMs` passed: the load's time is
 * then null), and quit. No key is pressed: what is kept, not what a key makes, is measured.
 */
export async function measureViewerPeak({cli, node, repo, path, capture, timeoutMs = 900_000}) {
	const terminal = new Terminal('peak', `cd ${quote(repo)} && ${quote(node)} ${quote(cli)} ${quote(path)}`, capture);
	try {
		const started = await terminal.start();
		const loaded = await terminal.waitForOutput(' · ended', timeoutMs);
		return {loadMs: loaded === undefined ? null : round(loaded - started), peakRssMb: megabytes(terminal.peakRssKb())};
	} finally {
		terminal.kill();
	}
}

/** How many times each shape's first screen is measured (the median is reported), the measured session included. */
const firstScreenStarts = 5;

/**
 * The first screen alone: the viewer started, its first frame awaited, and quit. One start's first frame varies by
 * 100 ms and more with what else the machine's two cores are doing at that moment (the bench's own tmux and pipe
 * included), so a shape's figure is the median of several starts, as the realistic log's is.
 */
async function firstScreenOnly({cli, node, repo, path, capture}) {
	const terminal = new Terminal('first', `cd ${quote(repo)} && ${quote(node)} ${quote(cli)} ${quote(path)}`, capture);
	try {
		const started = await terminal.start();
		const first = await terminal.waitForFrame(() => true, 60_000);
		return first ? round(first.at - started) : null;
	} finally {
		terminal.kill();
	}
}

function median(values) {
	const sorted = values.filter(value => value !== null).sort((a, b) => a - b);
	return sorted.length === 0 ? null : sorted[Math.floor((sorted.length - 1) / 2)];
}

/** Every shape: generates its log, measures it, removes it. Calls `figure(label, value)` for each figure. */
export async function measureViewerShapes({quick, seed, dir, cli, node, repo, generator, figure, shapes = viewerShapes(quick)}) {
	const out = {};
	for (const [shape, runs] of shapes) {
		const path = join(dir, `viewer-${shape}-${runs}.ndjson`);
		spawnSync(node, [generator, '--seed', String(seed), '--shape', shape, '--runs', String(runs), '--out', path], {stdio: 'ignore'});
		const measured = await measureViewerShape({cli, node, repo, path, capture: join(dir, `viewer-${shape}-${runs}.out`)});
		const firstScreens = [measured.firstScreenMs];
		for (let start = 1; start < firstScreenStarts; start++) {
			// The viewer before (a loaded log of a gigabyte or more, and its load worker) takes a moment to go.
			await sleep(2000);
			firstScreens.push(await firstScreenOnly({cli, node, repo, path, capture: join(dir, `viewer-${shape}-${runs}-first-${start}.out`)}));
		}

		measured.firstScreenMs = median(firstScreens);
		measured.firstScreens = firstScreens;
		rmSync(path, {force: true});
		const keyTimes = Object.values(measured.keys).filter(ms => ms !== null);
		const unanswered = Object.entries(measured.keys)
			.filter(([, ms]) => ms === null)
			.map(([name]) => name);
		const maxKeyMs = keyTimes.length === 0 ? null : Math.max(...keyTimes);
		const slowest = Object.entries(measured.keys)
			.filter(([, ms]) => ms !== null && ms > keyTargetMs)
			.map(([name, ms]) => `${name} ${ms}`);
		const duringMax = measured.keysDuringLoad.length === 0 ? null : Math.max(...measured.keysDuringLoad);
		out[`${shape}-${runs}`] = {...measured, maxKeyMs, keysDuringLoadMaxMs: duringMax, unanswered};
		const label = `viewer, shape ${shape} of ${runs} runs`;
		figure(
			`${label}: first screen / first tree`,
			`${measured.firstScreenMs ?? 'never'} ms (median of ${firstScreens.length}: ${firstScreens.map(ms => ms ?? 'never').join(', ')}) / ${measured.firstTreeMs ?? 'never'} ms  (target ≤ ${firstScreenTargetMs} ms), loaded in ${measured.loadMs ?? 'never'} ms`,
		);
		figure(`${label}: peak RSS loaded / after the keys`, `${measured.peakRssMb ?? '–'} MB / ${measured.peakRssAfterKeysMb ?? '–'} MB`);
		figure(
			`${label}: keys during the load (E / e)`,
			duringMax === null
				? 'none answered before the load ended'
				: `max ${duringMax} ms over ${measured.keysDuringLoad.length} presses (${measured.keysDuringLoad.join(', ')})  (target ≤ ${keyTargetMs} ms)`,
		);
		figure(
			`${label}: keys after the load`,
			`max ${maxKeyMs ?? '–'} ms over ${keyTimes.length} keys${slowest.length > 0 ? `; over target: ${slowest.join(', ')}` : ''}${unanswered.length > 0 ? `; never answered: ${unanswered.join(', ')}` : ''}${measured.skipped.length > 0 ? `; not measured: ${measured.skipped.join(', ')}` : ''}  (target ≤ ${keyTargetMs} ms)`,
		);
	}

	return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const {values: flags} = parseArgs({
		options: {
			quick: {type: 'boolean', default: false},
			shape: {type: 'string', multiple: true},
			seed: {type: 'string', default: '1'},
			keep: {type: 'boolean', default: false},
			cli: {type: 'string'},
		},
	});
	const repo = fileURLToPath(new URL('..', import.meta.url));
	const dir = mkdtempSync(join(tmpdir(), 'perscope-bench-viewer-'));
	const shapes = flags.shape?.map(text => {
		const [shape, runs] = text.split(':');
		return [shape, Number(runs)];
	});
	const figure = (label, value) => process.stdout.write(`${label.padEnd(70)} ${value}\n`);
	const summary = await measureViewerShapes({
		quick: flags.quick,
		seed: flags.seed,
		dir,
		cli: flags.cli ?? join(repo, 'dist/bin/perscope.js'),
		node: process.execPath,
		repo,
		generator: join(repo, 'build/tools/generate-log.js'),
		figure,
		...(shapes ? {shapes} : {}),
	});
	process.stdout.write(JSON.stringify({viewerShapes: summary}) + '\n');
	if (flags.keep) process.stdout.write(`kept ${dir}\n`);
	else rmSync(dir, {recursive: true, force: true});
}
