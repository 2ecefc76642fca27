import {describe, expect, it} from 'vitest';
import {modelFromFixtures} from '../../../test/helpers/load.js';
import {builtinPrices} from '../../query/prices.js';
import {displayWidth} from '../../text/width/width.js';
import {usageLines} from './usage-lines.js';

describe('#32 §3.10 u: a TOTAL row, and SHARE of cost when costs are known', () => {
	it('ends the table with the experts added up, in the same columns', () => {
		const {lines, shareOf} = usageLines(modelFromFixtures('demo.ndjson'), undefined, builtinPrices, 100);
		const texts = lines.map(line => line.text);
		expect(shareOf).toBe('cost');
		expect(texts.at(-1)).toMatch(/^TOTAL +4 +43k +907 +\S+ +\S+ +\$\d+\.\d+$/);
		expect(texts.every(text => displayWidth(text) <= 99)).toBe(true);
		// Each expert's share is of the cost.
		expect(texts.find(text => text.startsWith('bugfix-lead'))).toMatch(/\$0\.10 +\d+%/);
	});

	it('shares the tokens on a log whose cost is unknown (drover names no model), and shows a TOTAL of its two experts', () => {
		const {lines, shareOf} = usageLines(modelFromFixtures('drover-subagent.ndjson'), undefined, builtinPrices, 100);
		expect(shareOf).toBe('tokens');
		expect(lines.at(-1)?.text).toMatch(/^TOTAL +2 +46k +549 .* \?$/);
	});
});
