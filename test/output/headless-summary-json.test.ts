import {describeHeadlessMode, modes} from './headless-outputs.js';

// --summary --json of every fixture: its golden file, and the same output however the bytes arrive (headless-outputs.ts).
describeHeadlessMode(modes.summaryJson);
