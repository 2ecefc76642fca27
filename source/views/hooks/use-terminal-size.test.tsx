import {Text} from 'ink';
import {render} from 'ink-testing-library';
import {describe, expect, it} from 'vitest';
import {waitForFrame} from '../../../test/helpers/app.js';
import {useTerminalSize} from './use-terminal-size.js';

function Size() {
	const {columns, rows} = useTerminalSize();
	return <Text>{`${columns}×${rows}`}</Text>;
}

describe('useTerminalSize', () => {
	it('reads the terminal size, with 24 rows when the terminal does not say', async () => {
		const view = render(<Size />);
		expect(await waitForFrame(view, text => text !== '')).toBe(`${view.stdout.columns}×24`);
		view.unmount();
	});

	it('follows a resize at once', async () => {
		const view = render(<Size />);
		await waitForFrame(view, text => text !== '');
		Object.defineProperty(view.stdout, 'columns', {value: 61, configurable: true});
		Object.defineProperty(view.stdout, 'rows', {value: 17, configurable: true});
		view.stdout.emit('resize');
		await waitForFrame(view, text => text === '61×17');
		view.unmount();
	});
});
