import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Maximize, Minimize, Square } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import type { Flash } from '../hooks/use-flash-player';
import { sessionLook, type PlayerSettings } from '../lib/player-storage';

/** An Escape this soon after leaving full screen was the one that left it, not a request to stop. */
const FULL_SCREEN_ESCAPE_MS = 500;

/**
 * Covers the viewport while playing, as a modal: focus moves in and the page behind is inert. A message is placed at (x, y) fractions of the free space:
 * left = x·100% and translate(−x·100%), so it always lies wholly inside the viewport.
 */
export function FlashOverlay({
  flash,
  settings,
  onStop,
}: {
  flash: Flash | null;
  settings: PlayerSettings;
  onStop(): void;
}) {
  const look = sessionLook(settings);
  const overlay = useRef<HTMLDivElement>(null);
  const stopButton = useRef<HTMLButtonElement>(null);
  const [fullScreen, setFullScreen] = useState(false);

  useEffect(() => {
    const behind = [...document.body.children].filter(
      (element): element is HTMLElement =>
        element instanceof HTMLElement && element !== overlay.current && !element.inert,
    );
    for (const element of behind) element.inert = true;
    stopButton.current?.focus();
    return () => {
      for (const element of behind) element.inert = false;
    };
  }, []);

  useEffect(() => {
    let leftFullScreenAt = 0;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      // In full screen the first Escape only leaves full screen; the next one stops.
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
      else if (performance.now() - leftFullScreenAt > FULL_SCREEN_ESCAPE_MS) onStop();
    };
    const onFullScreenChange = () => {
      if (!document.fullscreenElement) leftFullScreenAt = performance.now();
      setFullScreen(document.fullscreenElement === overlay.current);
    };
    window.addEventListener('keydown', onKey);
    document.addEventListener('fullscreenchange', onFullScreenChange);
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('fullscreenchange', onFullScreenChange);
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    };
  }, [onStop]);

  const toggleFullScreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void overlay.current?.requestFullscreen().catch(() => undefined);
  };

  return createPortal(
    <div
      ref={overlay}
      data-testid="flash-overlay"
      className="fixed inset-0 z-40"
      style={{ background: look.background }}
      role="dialog"
      aria-modal="true"
      aria-label="Subliminal player"
    >
      {/* The messages' area ends above the controls, so a message never hides under them. */}
      <div className="absolute inset-x-0 top-0 bottom-24">
        {flash ? (
          <p
            key={flash.key}
            data-testid="flash-message"
            aria-hidden
            className="pointer-events-none absolute m-0 max-w-[calc(100%-1rem)] whitespace-normal break-words font-semibold leading-tight"
            style={{
              left: `${flash.x * 100}%`,
              top: `${flash.y * 100}%`,
              transform: `translate(${-flash.x * 100}%, ${-flash.y * 100}%)`,
              color: settings.messageColor,
              fontSize: `${settings.fontSize}px`,
              fontFamily: look.fontFamily,
            }}
          >
            {flash.text}
          </p>
        ) : null}
      </div>
      <div className="absolute bottom-6 left-1/2 flex -translate-x-1/2 gap-2 rounded-full border border-white/15 bg-night-950/70 p-2 backdrop-blur">
        <Button ref={stopButton} variant="danger" size="sm" onClick={onStop}>
          <Square aria-hidden className="h-4 w-4" /> Stop
        </Button>
        <Button variant="secondary" size="sm" onClick={toggleFullScreen}>
          {fullScreen ? <Minimize aria-hidden className="h-4 w-4" /> : <Maximize aria-hidden className="h-4 w-4" />}
          {fullScreen ? 'Exit full screen' : 'Full screen'}
        </Button>
        <span className="sr-only">Press Escape to stop.</span>
      </div>
    </div>,
    document.body,
  );
}
