import { render, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';

/** Longer than the 1 s Testing Library and Vitest wait by default, well within the web tests' 10 s. */
const LATER_MS = 1_300;

function ShownLater() {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), LATER_MS);
    return () => clearTimeout(timer);
  }, []);
  return shown ? <p>here now</p> : null;
}

describe("a web test's waits (setup.ts)", () => {
  it('each wait for what comes after more than a second', async () => {
    const startedAt = performance.now();
    const done = () => performance.now() - startedAt >= LATER_MS;
    render(<ShownLater />);
    await Promise.all([
      screen.findByText('here now'),
      waitFor(() => expect(done()).toBe(true)),
      vi.waitFor(() => expect(done()).toBe(true)),
      vi.waitFor(() => expect(done()).toBe(true), { interval: 20 }),
      expect.poll(done).toBe(true),
    ]);
  });

  it('keep a timeout a test gives', async () => {
    await expect(vi.waitFor(() => expect(false).toBe(true), 50)).rejects.toThrow();
    await expect(vi.waitFor(() => expect(false).toBe(true), { timeout: 50 })).rejects.toThrow();
  });
});

/** Shown after a timer, then marked by an effect of the render that showed it. */
function ShownThenMarked({ onMarked }: { onMarked: () => void }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), 20);
    return () => clearTimeout(timer);
  }, []);
  useEffect(() => {
    if (shown) onMarked();
  }, [shown, onMarked]);
  return shown ? <p>here now</p> : null;
}

describe('a found element (Testing Library, and the race mode of without-settle.ts)', () => {
  const raceMode = Boolean(process.env.WEB_TESTS_WITHOUT_SETTLE);

  it(
    raceMode
      ? 'is handed over before the effects of the render that showed it'
      : 'is handed over once those effects ran',
    async () => {
      const onMarked = vi.fn();
      render(<ShownThenMarked onMarked={onMarked} />);
      await screen.findByText('here now');
      expect(onMarked).toHaveBeenCalledTimes(raceMode ? 0 : 1);
    },
  );
});
