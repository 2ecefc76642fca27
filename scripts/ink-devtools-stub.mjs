// Stands in for Ink's build/devtools.js in the bundled Ink (scripts/bundle-views.mjs), which never turns on
// Ink's development mode: that module connects to React DevTools, needs react-devtools-core (not installed) and
// brings the `ws` WebSocket library (~126 KB) that the viewer would otherwise compile on every start.
export {};
