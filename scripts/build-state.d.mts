// Types of what TypeScript imports from build-state.mjs (the build's tests).

/** Builds the web app into dist/web and its renderers into dist/render, unless they are of the sources as they are. */
export function buildWeb(options?: { force?: boolean }): void;
