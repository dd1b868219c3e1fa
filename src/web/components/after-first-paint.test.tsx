import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as AfterFirstPaintModule from './after-first-paint';
import type * as TestingLibrary from '@testing-library/react';

// The flag lives in the module: each test starts from a fresh copy, as a fresh visit does (and a fresh
// Testing Library with it, so that both use the same React).
let module: typeof AfterFirstPaintModule;
let render: typeof TestingLibrary.render;
let screen: typeof TestingLibrary.screen;
beforeEach(async () => {
  vi.resetModules();
  module = await import('./after-first-paint');
  ({ render, screen } = await import('@testing-library/react'));
});

const Page = ({ label }: { label: string }) => {
  const { AfterFirstPaint } = module;
  return (
    <>
      <p>{label} top</p>
      <AfterFirstPaint>
        <p>{label} below</p>
      </AfterFirstPaint>
    </>
  );
};

describe('AfterFirstPaint', () => {
  it('renders its part with the rest when the SPA did not ask for a split (tests, a page in the app)', () => {
    render(<Page label="Page" />);
    expect(screen.getByText('Page below')).toBeInTheDocument();
  });

  it('on the first page of a visit, renders its part only after a frame, then every later page whole', async () => {
    module.splitFirstPage();
    const first = render(<Page label="First" />);
    expect(screen.getByText('First top')).toBeInTheDocument();
    expect(screen.queryByText('First below')).not.toBeInTheDocument();
    expect(await screen.findByText('First below')).toBeInTheDocument();
    first.unmount();

    render(<Page label="Second" />);
    expect(screen.getByText('Second below')).toBeInTheDocument();
  });

  it('renders its part at once on any page but the one the visit opened on', () => {
    window.history.replaceState(null, '', '/profile');
    module.splitFirstPage();
    window.history.pushState(null, '', '/subliminals');
    render(<Page label="Moved" />);
    expect(screen.getByText('Moved below')).toBeInTheDocument();
  });

  it('asks for nothing once it has left the page before its frame came', async () => {
    module.splitFirstPage();
    const frames = vi.spyOn(window, 'cancelAnimationFrame');
    const page = render(<Page label="Left" />);
    page.unmount();
    expect(frames).toHaveBeenCalled();
    // The split is still owed to the next first render, which shows its part after a frame.
    render(<Page label="Next" />);
    expect(screen.queryByText('Next below')).not.toBeInTheDocument();
    expect(await screen.findByText('Next below')).toBeInTheDocument();
  });
});
