// Types of what TypeScript imports from build-state.mjs (the build's tests).

/** Builds the web app into dist/web and its renderers into dist/render, unless they are of the sources as they are. */
export function buildWeb(options?: { force?: boolean }): void;

/** Files and folders under the build's inputs that no build reads (tests, test helpers, notes). */
export function isNoBuildInput(name: string, isDirectory: boolean): boolean;

/** Whether a build that started at `builtAt` (ms) is of the `inputs` (paths under `root`, the repository's by default) as they are. */
export function inputsUnchangedSince(builtAt: number, inputs: readonly string[], root?: string): boolean;

/** What the web build reads, and the server build's (paths under the repository). */
export const INPUTS: readonly string[];
export const SERVER_INPUTS: readonly string[];

/** The repository's root folder. */
export const ROOT: string;
