import {applyChangesInParts} from '../../source/load/viewer/apply-changes.js';
import type {ModelChanges} from '../../source/load/viewer/model-changes.js';
import type {Model} from '../../source/model/state.js';

/**
 * The viewer's model with `changes` put in at once, as the viewer does it a part at a time between keys
 * (load/viewer/apply-changes.ts): a new model object, sharing what did not change with `model`.
 */
export function applyChanges(model: Model, changes: ModelChanges): Model {
	const parts = applyChangesInParts(model, changes);
	for (;;) {
		const part = parts.next();
		if (part.done) return part.value;
	}
}
