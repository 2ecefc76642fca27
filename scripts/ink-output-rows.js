// Appended to Ink's build/output.js when Ink is bundled (scripts/bundle-views.mjs); it uses that module's own
// bindings (Output, sliceAnsi, styledCharsToString).
//
// Ink turns every frame into a grid of one object per cell, then every written line into one object per
// character (tokenising its escape codes), and every row back into a string. Most of the viewer's rows are
// one text written from column 0 that nothing else draws over: such a row is that text, and building and
// re-serialising its cells only cost time (about half of a frame, several times more while the code is
// still cold). This `get` keeps such rows as their text and builds cells, exactly as Ink does, only for rows
// that something else is written to as well. test/views/ink-output-rows.test.ts holds it to Ink's output.
{
	const blankCell = () => ({type: 'char', value: ' ', fullWidth: false, styles: []});

	Output.prototype.get = function () {
		// Per row: undefined (nothing written), a string (one text from column 0), or cells as Ink builds them.
		const rows = Array.from({length: this.height});
		const writeCells = (row, x, line) => {
			let offsetX = x;
			for (const character of this.caches.getStyledChars(line)) {
				row[offsetX] = character;
				const characterWidth = Math.max(1, this.caches.getStringWidth(character.value));
				for (let index = 1; index < characterWidth; index++) row[offsetX + index] = {type: 'char', value: '', fullWidth: false, styles: character.styles};
				offsetX += characterWidth;
			}
		};

		const cellsOf = y => {
			const current = rows[y];
			if (Array.isArray(current)) return current;
			const row = Array.from({length: this.width}, blankCell);
			if (typeof current === 'string') writeCells(row, 0, current);
			rows[y] = row;
			return row;
		};

		const clips = [];
		for (const operation of this.operations) {
			if (operation.type === 'clip') clips.push(operation.clip);
			if (operation.type === 'unclip') clips.pop();
			if (operation.type !== 'write') continue;
			// From here to the loop over lines, as Ink's own get().
			const {text, transformers} = operation;
			let {x, y} = operation;
			let lines = text.split('\n');
			const clip = clips.at(-1);
			if (clip) {
				const clipHorizontally = typeof clip?.x1 === 'number' && typeof clip?.x2 === 'number';
				const clipVertically = typeof clip?.y1 === 'number' && typeof clip?.y2 === 'number';
				if (clipHorizontally) {
					const width = this.caches.getWidestLine(text);
					if (x + width < clip.x1 || x > clip.x2) continue;
				}

				if (clipVertically) {
					const height = lines.length;
					if (y + height < clip.y1 || y > clip.y2) continue;
				}

				if (clipHorizontally) {
					lines = lines.map(line => {
						const from = x < clip.x1 ? clip.x1 - x : 0;
						const width = this.caches.getStringWidth(line);
						const to = x + width > clip.x2 ? clip.x2 - x : width;
						return sliceAnsi(line, from, to);
					});
					if (x < clip.x1) x = clip.x1;
				}

				if (clipVertically) {
					const from = y < clip.y1 ? clip.y1 - y : 0;
					const height = lines.length;
					const to = y + height > clip.y2 ? clip.y2 - y : height;
					lines = lines.slice(from, to);
					if (y < clip.y1) y = clip.y1;
				}
			}

			let offsetY = 0;
			for (let [index, line] of lines.entries()) {
				const at = y + offsetY;
				// Ink skips a line outside the grid without moving on to the next row.
				if (!(at >= 0 && at < this.height)) continue;
				for (const transformer of transformers) line = transformer(line, index);
				// Ink would trim trailing blanks, but keep styled ones (an inverse bar): such lines take the long way.
				if (x === 0 && rows[at] === undefined && line === line.trimEnd()) rows[at] = line;
				else writeCells(cellsOf(at), x, line);
				offsetY++;
			}
		}

		const output = rows.map(row => {
			if (row === undefined) return '';
			// Ink ends every row with its styles closed, so none runs on into the next; so does a reset here.
			if (typeof row === 'string') return row.includes('\u001B') ? `${row}\u001B[0m` : row;
			return styledCharsToString(row.filter(item => item !== undefined)).trimEnd();
		});
		return {output: output.join('\n'), height: output.length};
	};
}
