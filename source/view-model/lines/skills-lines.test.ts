import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath, modelFromFixtures, modelFromText} from '../../../test/helpers/load.js';
import {createModel, type Model} from '../../model/state.js';
import {hasStatusBar} from './skills-lines.js';

/** skills.ndjson up to line `count`: Docker builds, skills connect, the proxy lets requests through. */
function upTo(count: number): Model {
	return modelFromText(readFileSync(fixturePath('skills.ndjson'), 'utf8').split('\n').slice(0, count).join('\n'));
}

describe('hasStatusBar', () => {
	it('is needed once a skill, a container or the proxy is reported, not before', () => {
		expect(hasStatusBar(createModel())).toBe(false);
		expect(hasStatusBar(upTo(2))).toBe(true);
		expect(hasStatusBar(modelFromFixtures('real/simple.ndjson'))).toBe(true);
	});
});
