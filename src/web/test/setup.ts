import '@testing-library/jest-dom/vitest';
import { format } from 'node:util';
import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// Every wait of a web test (Testing Library's `findBy` and `waitFor`, Vitest's `vi.waitFor`, and
// `expect.poll` in vitest.config.ts) gives up after 10 s, not their 1 s: a page that loads a lazy route
// took over a second on a two-core machine running both test workers and other work (CI failed on it
// once so), and a first render over 5 s when two cores ran at a load of 20. A test whose expectation
// holds sooner is not slowed; one that times something on purpose passes its own timeout.
const WAIT_MS = 10_000;
configure({ asyncUtilTimeout: WAIT_MS });
// Vitest has no setting for `vi.waitFor`'s default (vitest-dev/vitest#9741). Wrapped once: without
// isolation a worker would keep `vi` from one test file to the next.
type WaitFor = typeof vi.waitFor & { withWebDefault?: true };
if (!(vi.waitFor as WaitFor).withWebDefault) {
  const waitFor = vi.waitFor;
  vi.waitFor = Object.assign(
    ((callback, options) =>
      waitFor(callback, typeof options === 'number' ? options : { timeout: WAIT_MS, ...options })) as typeof vi.waitFor,
    { withWebDefault: true as const },
  );
}

// A test fails on any console.error it did not expect (React's warnings land there): a test that
// expects one says so with `expectConsoleError`.
let consoleErrors: string[] = [];
let expectedConsoleErrors: RegExp[] = [];
let consoleErrorSpy: { mockRestore(): void } | undefined;

/** Lets console.error messages matching `pattern` through for the current test. */
export function expectConsoleError(pattern: RegExp): void {
  expectedConsoleErrors.push(pattern);
}

beforeEach(() => {
  consoleErrors = [];
  expectedConsoleErrors = [];
  consoleErrorSpy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(format(...args));
  });
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  consoleErrorSpy?.mockRestore();
  const unexpected = consoleErrors.filter((message) => !expectedConsoleErrors.some((pattern) => pattern.test(message)));
  if (unexpected.length > 0) throw new Error(`unexpected console.error:\n${unexpected.join('\n---\n')}`);
});

// jsdom has no matchMedia; the theme and reduced-motion code ask it.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// jsdom lays nothing out, so it has no scrollIntoView; links to a #section scroll to it.
Element.prototype.scrollIntoView ??= () => undefined;
