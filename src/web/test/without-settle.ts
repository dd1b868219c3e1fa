import { configure } from '@testing-library/react';

// The web tests' race mode (`npm run test:race`, docs/decisions/078-tests-that-read-a-state-on-its-way.md):
// Testing Library's `findBy*` and `waitFor` no longer wait one more task once what they look for is there, so a
// test goes on before React runs the effects of the render it saw, as it does on a loaded machine when that task
// comes late. A test that reads a state on its way there fails here every time instead of once in a while.
type ActEnvironment = typeof globalThis & { IS_REACT_ACT_ENVIRONMENT?: boolean };

configure({
  asyncWrapper: async (callback) => {
    const environment = globalThis as ActEnvironment;
    const previous = environment.IS_REACT_ACT_ENVIRONMENT;
    // As Testing Library's own wrapper: waits poll outside act(), as a person's browser would.
    environment.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      return await callback();
    } finally {
      environment.IS_REACT_ACT_ENVIRONMENT = previous;
    }
  },
});
