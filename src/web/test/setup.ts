import '@testing-library/jest-dom/vitest';
import { format } from 'node:util';
import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// A `findBy` or `waitFor` waits up to 5 s, not 1: a page that loads a lazy route took over a second on
// a two-core machine running both test workers and other work (CI failed on it once so). A test whose
// expectation holds sooner is not slowed.
configure({ asyncUtilTimeout: 5_000 });

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
