// Stands in for react-devtools-core in the bundled Ink (scripts/bundle-views.mjs): Ink only connects to React
// DevTools when run with DEV=true, which perscope never asks for.
export default {initialize() {}, connectToDevTools() {}};
