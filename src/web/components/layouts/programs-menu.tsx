import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from '@web/lib/link';
import { ChevronDown } from 'lucide-react';
import { paths } from '@web/lib/paths';
import { clsx } from 'clsx';

/** The Programs dropdown (docs/product/screens.md#programs-menu): where each program lives in the portal. */
export const PROGRAM_LINKS = [
  { label: 'Portal', to: paths.portalHome },
  { label: 'Solfeggio Frequencies (174Hz to 963Hz)', to: paths.music },
  { label: 'Meditation Programs', to: paths.programs },
  { label: 'Custom Affirmations', to: paths.subliminals },
  // The seeded programs (docs/product/guidance.md#programs); signed-out visitors pass the login first.
  { label: 'Sleep Enhancement', to: `${paths.programs}/seven-nights-of-rest` },
  { label: 'Manifestation', to: `${paths.programs}/clear-intentions` },
  { label: 'Mindfulness', to: `${paths.programs}/mindful-moments` },
] as const;

/**
 * A disclosure navigation menu (WAI-ARIA APG pattern for site navigation): the button toggles a list
 * of links. Arrow keys, Home and End move between links, Escape closes and returns focus to the
 * button, and clicking or tabbing away closes it. Small enough to ship on the first load.
 */
export function ProgramsMenu({ triggerClassName }: { triggerClassName: string }) {
  const [open, setOpen] = useState(false);
  const [focusFirst, setFocusFirst] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  const links = () => Array.from(container.current?.querySelectorAll<HTMLAnchorElement>('a') ?? []);

  useEffect(() => {
    if (!open) return;
    if (focusFirst) links()[0]?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, focusFirst]);

  const toggle = (next: boolean, withFocus = false) => {
    setFocusFirst(withFocus);
    setOpen(next);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const items = links();
    const current = items.indexOf(document.activeElement as HTMLAnchorElement);
    const focusAt = (index: number) => items[(index + items.length) % items.length]?.focus();
    switch (event.key) {
      case 'Escape':
        if (!open) return;
        event.preventDefault();
        setOpen(false);
        button.current?.focus();
        return;
      case 'ArrowDown':
        event.preventDefault();
        if (!open) toggle(true, true);
        else focusAt(current + 1);
        return;
      case 'ArrowUp':
        if (!open) return;
        event.preventDefault();
        focusAt(current <= 0 ? items.length - 1 : current - 1);
        return;
      case 'Home':
      case 'End':
        if (!open || current < 0) return;
        event.preventDefault();
        focusAt(event.key === 'Home' ? 0 : items.length - 1);
    }
  };

  return (
    <div
      ref={container}
      className="relative"
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (open && !container.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => toggle(!open)}
        className={clsx(triggerClassName, 'inline-flex cursor-pointer items-center gap-1')}
      >
        Programs
        <ChevronDown aria-hidden className={clsx('h-4 w-4 transition-transform', open && 'rotate-180')} />
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute left-0 top-full z-50 mt-2 w-max min-w-64 rounded-2xl border border-line bg-surface-raised p-2 shadow-xl animate-fade-in"
      >
        <ul>
          {PROGRAM_LINKS.map((link) => (
            <li key={link.label}>
              <Link
                to={link.to}
                onClick={() => setOpen(false)}
                className="block whitespace-nowrap rounded-xl px-3 py-2 text-sm text-fg outline-offset-[-2px] hover:bg-black/5 focus-visible:bg-black/5 dark:hover:bg-white/10 dark:focus-visible:bg-white/10"
              >
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
