import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {waitForFrame} from '../../../test/helpers/app.js';
import {fixturePath, modelFromFixtures, modelFromText} from '../../../test/helpers/load.js';
import {renderView} from '../../../test/helpers/views.js';
import type {Model} from '../../model/state.js';
import {SkillsBar} from './skills-bar.js';

/** skills.ndjson up to line `count`: Docker builds, skills connect, the proxy lets requests through. */
function upTo(count: number): Model {
	return modelFromText(readFileSync(fixturePath('skills.ndjson'), 'utf8').split('\n').slice(0, count).join('\n'));
}

async function bar(model: Model): Promise<string> {
	const view = renderView(<SkillsBar width={100} />, {model});
	const frame = await waitForFrame(view, text => text.startsWith('skills'));
	view.unmount();
	return frame;
}

describe('the skills bar', () => {
	it('shows a skill that is starting, and how Docker is building', async () => {
		expect(await bar(upTo(13))).toBe('skills ● @perstack/base 37ms  ◌ fetch starting  🐳 runtime running  🐳 proxy healthy');
	});

	it('shows how long each skill took to connect and how many stderr lines it wrote', async () => {
		expect(await bar(upTo(16))).toMatch(/^skills ● @perstack\/base 37ms {2}● fetch 746ms ⚠2 {2}S: details {2}/);
	});

	it('says where to read the stderr lines once a skill wrote some, and only then', async () => {
		expect(await bar(upTo(13))).not.toContain('S: details');
		expect(await bar(upTo(14))).toMatch(/● @perstack\/base 37ms {2}◌ fetch starting ⚠1 {2}S: details {2}🐳 runtime/);
	});

	it('counts what the proxy allowed and blocked, naming the last domain blocked', async () => {
		const lines = readFileSync(fixturePath('skills.ndjson'), 'utf8').split('\n');
		const proxyOnly = modelFromText(
			lines
				.slice(0, 22)
				.filter(line => line.includes('"type":"proxyAccess"'))
				.join('\n'),
		);
		expect(await bar(proxyOnly)).toBe('skills proxy 2 allowed / 1 blocked (last: www.googletagmanager.com)');
	});

	it('shows skills that went away as disconnected', async () => {
		expect(await bar(modelFromFixtures('real/simple.ndjson'))).toBe('skills ○ @perstack/base disconnected');
	});
});
