import {describeHeadlessMode, modes} from './headless-outputs.js';

// --summary of every fixture: the same output however the bytes arrive (headless-outputs.ts).
describeHeadlessMode(modes.summary);
