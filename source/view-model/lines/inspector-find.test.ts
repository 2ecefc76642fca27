import {describe, expect, it} from 'vitest';
import {carryMatch, findMatches, findNeedsUnfolding, firstMatchFrom, highlightSegments, revealLine, stepFind} from './inspector-find.js';
import type {InspectorLine} from './inspector-lines.js';

const lines = ['Command', 'npx vitest run', '', 'Output', 'VITEST v4 · vitest passed', 'İstanbul'].map(text => ({text}));

describe('finding in the inspector', () => {
	it('finds every occurrence ignoring case, top to bottom, with where it is in the line', () => {
		expect(findMatches(lines, 'vitest')).toEqual([
			{line: 1, start: 4, end: 10},
			{line: 4, start: 0, end: 6},
			{line: 4, start: 12, end: 18},
		]);
		expect(findMatches(lines, '')).toEqual([]);
		// Characters that mean something in a regular expression are searched for as they are.
		expect(findMatches([{text: 'a.b a+b (x)'}], '(x)')).toEqual([{line: 0, start: 8, end: 11}]);
		expect(findMatches([{text: 'a.b axb'}], 'a.b')).toHaveLength(1);
	});

	it('starts from the line in view, and steps round at either end', () => {
		const found = findMatches(lines, 'vitest');
		expect(firstMatchFrom(found, 2)).toBe(1);
		expect(firstMatchFrom(found, 5)).toBe(0);
		expect(firstMatchFrom([], 0)).toBeUndefined();
		expect(stepFind(3, 2, 1)).toBe(0);
		expect(stepFind(3, 0, -1)).toBe(2);
		expect(stepFind(3, undefined, -1)).toBe(2);
		expect(stepFind(0, undefined, 1)).toBeUndefined();
	});

	it('leaves the view where it is when the match is in sight, else puts it a third of the way down', () => {
		expect(revealLine(12, 10, 9, 100)).toBe(10);
		expect(revealLine(40, 10, 9, 100)).toBe(37);
		expect(revealLine(1, 10, 9, 100)).toBe(0);
		expect(revealLine(99, 0, 9, 95)).toBe(95);
	});

	it('cuts a line into the text between matches and the matches, marking the current one', () => {
		const found = findMatches(lines, 'vitest');
		const onLine = found.filter(match => match.line === 4);
		expect(highlightSegments('VITEST v4 · vitest passed', onLine, found[2])).toEqual([
			{text: 'VITEST', match: 'other'},
			{text: ' v4 · ', match: 'none'},
			{text: 'vitest', match: 'current'},
			{text: ' passed', match: 'none'},
		]);
	});

	it('carries the current match across a fold change: above it stays, below it moves, inside it lands on the first from there', () => {
		const before = ['a x', 'fold: 3 lines', 'b x', 'c'].map(text => ({text}));
		const after = ['a x', 'one x', 'two', 'three x', 'b x', 'c'].map(text => ({text}));
		const found = findMatches(after, 'x');
		const was = findMatches(before, 'x');
		expect(carryMatch(before, after, was[0]!, found)).toBe(0);
		expect(found[carryMatch(before, after, was[1]!, found)!]).toEqual({line: 4, start: 2, end: 3});
		// A match in the folded block's own line lands on the first match of what replaced it.
		const marker = {line: 1, start: 0, end: 1};
		expect(carryMatch(before, after, marker, found)).toBe(1);
	});
});

describe('#32 §3.6 find also searches folded lines', () => {
	it('a match only in a folded block asks for the blocks to be unfolded; one already shown does not', () => {
		const output = Array.from({length: 200}, (_, index) => `line ${index + 1}`).join('\n');
		const folded: InspectorLine[] = [{text: 'line 1'}, {text: '… 140 lines left out …', tone: 'dim', fold: 0}, {text: 'line 200'}];
		const whole: InspectorLine[] = output.split('\n').map(text => ({text}));
		expect(findNeedsUnfolding(folded, whole, 'line 100')).toBe(true);
		expect(findNeedsUnfolding(folded, whole, 'line 200')).toBe(false);
		expect(findNeedsUnfolding(folded, whole, '')).toBe(false);
	});
});
