import { lazy, useLayoutEffect, useState, type ReactElement } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LazyMount } from './lazy-mount';

function Opener({ load }: { load: () => Promise<{ default: () => ReactElement }> }) {
  const [Modal] = useState(() => lazy(load));
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(!open)}>{open ? 'Close' : 'Open'}</button>
      <LazyMount when={open}>
        <Modal />
      </LazyMount>
    </>
  );
}

const modal = () => Promise.resolve({ default: () => <p>the modal</p> });

describe('LazyMount', () => {
  afterEach(() => vi.restoreAllMocks());

  it('loads nothing until it is first asked for, then keeps its children mounted', async () => {
    const load = vi.fn(modal);
    const user = userEvent.setup();
    render(<Opener load={load} />);
    expect(load).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByText('the modal')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByText('the modal')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('shows its children as soon as their code is there, not after React’s 300 ms hold on a fallback', async () => {
    // Timed by the clock, a loaded machine took longer than the hold itself. Instead React's clock stands still, so
    // it does not cut its work into slices: what it renders at once it puts on screen in the same task, unless it holds
    // the reveal back, which it does for a timer of its own, a task later.
    vi.spyOn(performance, 'now').mockReturnValue(performance.now());
    let onScreen = false;
    let heldBack = false;
    function Modal() {
      queueMicrotask(() => (heldBack ||= !onScreen));
      useLayoutEffect(() => void (onScreen = true));
      return <p>the modal</p>;
    }
    const user = userEvent.setup();
    render(<Opener load={() => Promise.resolve({ default: Modal })} />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByText('the modal')).toBeInTheDocument();
    expect(heldBack, 'put on screen a task after it was rendered').toBe(false);
  });
});
