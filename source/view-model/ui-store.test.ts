import {describe, expect, it} from 'vitest';
import {UiStore} from './ui-store.js';

describe('the UI store', () => {
	it('applies each action at once, so a second key in the same read sees the first', () => {
		const store = new UiStore();
		store.dispatch({type: 'openPrompt', kind: 'search', text: ''});
		store.dispatch({type: 'editPrompt', text: `${store.getState().prompt?.text ?? ''}v`});
		store.dispatch({type: 'editPrompt', text: `${store.getState().prompt?.text ?? ''}i`});
		expect(store.getState().prompt?.text).toBe('vi');
	});

	it('tells its listeners about changes only, and stops when they unsubscribe', () => {
		const store = new UiStore();
		let calls = 0;
		const unsubscribe = store.subscribe(() => calls++);
		store.dispatch({type: 'setFollow', follow: false});
		store.dispatch({type: 'scrollOverlay', by: 1, max: 10});
		expect(calls).toBe(1);
		unsubscribe();
		store.dispatch({type: 'setFollow', follow: true});
		expect(calls).toBe(1);
		expect(store.getState().follow).toBe(true);
	});
});
