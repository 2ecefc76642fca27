import {describeHeadlessMode, modes} from './headless-outputs.js';

// --print of every fixture: its golden file, and the same output however the bytes arrive (headless-outputs.ts).
describeHeadlessMode(modes.print);
