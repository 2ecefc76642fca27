import {describe, expect, it} from 'vitest';
import {prepareInkEnvironment} from './ink-environment.js';

describe('prepareInkEnvironment', () => {
	it('hides CI and DEV, asks for React production and puts everything back as it was', () => {
		const env: NodeJS.ProcessEnv = {CI: 'true', CONTINUOUS_INTEGRATION: '1', DEV: 'true', NODE_ENV: 'development', PATH: '/bin'};
		const restore = prepareInkEnvironment(env, {});
		expect(env).toEqual({NODE_ENV: 'production', PATH: '/bin'});
		restore();
		expect(env).toEqual({CI: 'true', CONTINUOUS_INTEGRATION: '1', DEV: 'true', NODE_ENV: 'development', PATH: '/bin'});
	});

	it('turns NO_COLOR into FORCE_COLOR=0 for chalk, unless FORCE_COLOR is set', () => {
		const noColor: NodeJS.ProcessEnv = {NO_COLOR: '1'};
		const restore = prepareInkEnvironment(noColor, {});
		expect(noColor).toEqual({NO_COLOR: '1', FORCE_COLOR: '0', NODE_ENV: 'production'});
		restore();
		expect(noColor).toEqual({NO_COLOR: '1'});
		const forced: NodeJS.ProcessEnv = {NO_COLOR: '1', FORCE_COLOR: '3'};
		prepareInkEnvironment(forced, {});
		expect(forced['FORCE_COLOR']).toBe('3');
	});

	it("hides fetch while Ink loads, without looking at it (its first look loads Node's fetch), and puts it back as it was", () => {
		let looked = 0;
		const fetchLater = () => {
			looked++;
			return () => 'fetched';
		};
		const scope = {};
		Object.defineProperty(scope, 'fetch', {get: fetchLater, configurable: true, enumerable: true});
		const before = Object.getOwnPropertyDescriptor(scope, 'fetch');
		const restore = prepareInkEnvironment({}, scope);
		expect(typeof (scope as {fetch?: unknown}).fetch).toBe('undefined');
		restore();
		expect(Object.getOwnPropertyDescriptor(scope, 'fetch')).toEqual(before);
		expect(looked).toBe(0);
	});
});
