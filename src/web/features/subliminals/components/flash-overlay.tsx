import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';
import { Maximize, Minimize, Pause, PictureInPicture2, Play, Square, SquareArrowOutUpLeft } from 'lucide-react';
import clsx from 'clsx';
import { toast } from 'sonner';
import type { MessageCategory } from '@shared/contract';
import { Button } from '@web/components/ui/button';
import { soundEngine } from '@web/lib/audio/app-engine';
import { flashSessions } from '@web/lib/audio/app-session-ends';
import { useSoundEngine } from '@web/lib/audio/use-sound-engine';
import { useBottomChromePart } from '@web/lib/bottom-chrome';
import { addSessionEntry, type SessionEntry } from '@web/lib/session-entry';
import { useScreenWakeLock } from '@web/lib/wake-lock';
import { useFlashPlayer } from '../hooks/use-flash-player';
import { flashSessionTag, type FlashedMessage } from '../lib/flash-session';
import { FLASH_MARGIN, fittingFontSize, flashMaxWidth, placeFlash } from '../lib/flash-placement';
import { sessionLook, type PlayerSettings } from '../lib/player-storage';
import { SessionBackground } from './session-background';
import { SessionStatus } from './session-status';

/** An Escape this soon after leaving full screen was the one that left it, not a request to stop. */
const FULL_SCREEN_ESCAPE_MS = 500;
/** The controls hide after this long without a pointer movement, a key or a focus change. */
export const CONTROLS_IDLE_MS = 3000;
/** Messages in the corner are this much of the chosen size (never under 12 px). */
const CORNER_FONT_SCALE = 0.6;

/** Messages flashed with no sound are recorded in history as a session (lib/audio/flash-sessions.ts). */
function useRecordedWhenSilent(
  playlist: readonly FlashedMessage[],
  categories: readonly MessageCategory[] | undefined,
  paused: boolean,
) {
  const tag = useMemo(() => flashSessionTag(playlist, categories), [playlist, categories]);
  useEffect(() => flashSessions.flashing(tag, !paused), [tag, paused]);
  useEffect(() => () => flashSessions.stop(), []);
}

/**
 * While `active` (full size), the session has a history entry of its own (lib/session-entry.ts), so Back (a
 * phone's back gesture) stops it instead of leaving the page. Returns how the screen leaves full size itself
 * (Stop, Escape, In a corner, the sleep timer): the entry goes first, then `then` runs
 * (docs/decisions/059-back-stops-the-session-screen.md).
 */
function useBackStops(active: boolean, onStop: () => void): (then: () => void) => void {
  const stop = useRef(onStop);
  useLayoutEffect(() => {
    stop.current = onStop;
  }, [onStop]);
  const entry = useRef<SessionEntry | null>(null);
  useEffect(() => {
    if (!active) return;
    let cancelled = false;
    // After the commit: StrictMode's trial mount and unmount (in development) must add no entry.
    queueMicrotask(() => {
      if (!cancelled) entry.current = addSessionEntry(() => stop.current());
    });
    return () => {
      cancelled = true;
      entry.current?.release();
      entry.current = null;
    };
  }, [active]);
  return useCallback((then: () => void) => (entry.current ? entry.current.leave(then) : then()), []);
}

/**
 * The session screen (docs/product/screens.md#session-screen). Full size it covers the viewport as a
 * modal: focus moves in, the page behind is inert, Escape leaves and focus goes back to `returnFocusTo`
 * (or whatever had it before). In the corner it is a small window over the page, which stays usable.
 * Each message is laid out at its natural width, measured and placed before the frame is painted
 * (lib/flash-placement.ts), so it lies wholly inside the screen.
 */
export function FlashOverlay({
  playlist,
  settings,
  onStop,
  returnFocusTo,
  categories,
}: {
  playlist: readonly FlashedMessage[];
  settings: PlayerSettings;
  onStop(): void;
  returnFocusTo?: RefObject<HTMLElement | null>;
  /** The library's categories, to name the session in history by those its messages come from. */
  categories?: readonly MessageCategory[];
}) {
  const look = sessionLook(settings);
  const overlay = useRef<HTMLDivElement>(null);
  const message = useRef<HTMLParagraphElement>(null);
  const chrome = useRef<HTMLDivElement>(null);
  const [fullScreen, setFullScreen] = useState(false);
  const [corner, setCorner] = useState(false);
  // With sound, the session is paused when its sound is, whichever control paused it (this screen's or
  // the mini-player's); without, by this screen's Pause. The last pause stays when the sound stops.
  const engine = useSoundEngine();
  const [pausedWithoutSound, setPausedWithoutSound] = useState(false);
  const [engineStatus, setEngineStatus] = useState(engine.status);
  if (engineStatus !== engine.status) {
    setEngineStatus(engine.status);
    if (engine.status !== 'stopped') setPausedWithoutSound(engine.status === 'paused');
  }
  const paused = engine.status === 'stopped' ? pausedWithoutSound : engine.status === 'paused';
  const flash = useFlashPlayer(playlist, settings, !paused);
  // In the corner it sits on the mini-player, and a page's own bottom bar above it (lib/bottom-chrome.ts).
  useBottomChromePart('corner', overlay, corner);
  // The screen stays on while the messages flash (full size or in the corner), not while paused.
  useScreenWakeLock(!paused);
  useRecordedWhenSilent(playlist, categories, paused);
  // Full size, Back stops the session as Escape does; in the corner it moves between pages as a link does.
  const leaveFullSize = useBackStops(!corner, onStop);
  const stop = useCallback(() => leaveFullSize(onStop), [leaveFullSize, onStop]);

  // Focus moves in on opening and back to the opener on closing: `returnFocusTo` as it is then (the
  // screen goes on across pages, so the page that opened it may be another one by now, or none).
  const returnTo = useRef(returnFocusTo);
  useLayoutEffect(() => {
    returnTo.current = returnFocusTo;
  }, [returnFocusTo]);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    overlay.current?.focus();
    return () => {
      const target = returnTo.current?.current ?? opener;
      // After the inert page is released (the effect below is cleaned up first, being declared later), and only when
      // the keyboard went with the screen: a session ending in its corner (its sleep timer, the mini-player's Stop)
      // while the person types elsewhere on the page leaves the keyboard there, where it went to Start, and the next
      // space began a session anew (decision 113).
      queueMicrotask(() => {
        const focused = document.activeElement;
        if (focused && focused !== document.body && focused.isConnected) return;
        if (target?.isConnected) target.focus();
      });
    };
  }, []);

  // Full size it is modal: the page behind is inert. In the corner the page stays usable.
  useEffect(() => {
    if (corner) return;
    // The page's notes ("Added … to playlist!") are done with: left, they would sit over the session,
    // inert with the page, until their time ran out.
    toast.dismiss();
    const behind = [...document.body.children].filter(
      (element): element is HTMLElement =>
        element instanceof HTMLElement && element !== overlay.current && !element.inert,
    );
    for (const element of behind) element.inert = true;
    return () => {
      for (const element of behind) element.inert = false;
    };
  }, [corner]);

  useEffect(() => {
    let leftFullScreenAt = 0;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      // In the corner, an Escape meant for the page (a dialog, a field) is not for the session.
      if (corner && !overlay.current?.contains(document.activeElement)) return;
      // In full screen the first Escape only leaves full screen; the next one stops.
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
      else if (performance.now() - leftFullScreenAt > FULL_SCREEN_ESCAPE_MS) stop();
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
    };
  }, [stop, corner]);
  useEffect(
    () => () => {
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    },
    [],
  );

  // The sleep timer ending ends the session too ("then everything stops").
  const ended = engine.ended;
  const endedAtOpening = useRef(ended);
  useEffect(() => {
    if (ended && ended !== endedAtOpening.current && ended.by === 'timer') stop();
  }, [ended, stop]);

  // The controls show on a pointer movement, a key or a focus change, and hide after a stillness.
  const [controlsShown, setControlsShown] = useState(true);
  const idleTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const overControls = useRef(false);
  const hideLater = useCallback(() => {
    clearTimeout(idleTimer.current);
    idleTimer.current = setTimeout(() => {
      if (!overControls.current) setControlsShown(false);
    }, CONTROLS_IDLE_MS);
  }, []);
  const reveal = useCallback(() => {
    setControlsShown(true);
    hideLater();
  }, [hideLater]);
  useEffect(() => {
    hideLater();
    return () => clearTimeout(idleTimer.current);
  }, [hideLater]);
  const shown = controlsShown || paused;

  const fontSize = corner ? Math.max(12, Math.round(settings.fontSize * CORNER_FONT_SCALE)) : settings.fontSize;

  // Place each message before it is painted: measure its natural box (at a smaller size when it would
  // not fit the screen's height), then clamp it into the area.
  const placeMessage = useCallback(() => {
    const root = overlay.current;
    const element = message.current;
    if (!root || !element || !flash) return;
    const reserve = corner ? 0 : (chrome.current?.offsetHeight ?? 0) + 24;
    const area = { width: root.clientWidth, height: Math.max(0, root.clientHeight - reserve) };
    element.style.maxWidth = `${flashMaxWidth(area.width)}px`;
    const room = area.height - 2 * Math.min(FLASH_MARGIN, area.height / 4);
    fittingFontSize(fontSize, room, (fontPx) => {
      element.style.fontSize = `${fontPx}px`;
      return element.offsetHeight;
    });
    const place = placeFlash(flash, { width: element.offsetWidth, height: element.offsetHeight }, area);
    element.style.left = `${place.left}px`;
    element.style.top = `${place.top}px`;
    element.style.visibility = 'visible';
  }, [flash, corner, fontSize]);
  useLayoutEffect(placeMessage, [placeMessage]);
  // A window resized or a phone turned while a message shows: it is laid out again in the new area, at the
  // same fractions of its free space, before that frame is painted, so it stays wholly on the screen.
  const placeLatest = useRef(placeMessage);
  useLayoutEffect(() => {
    placeLatest.current = placeMessage;
  });
  useEffect(() => {
    const root = overlay.current;
    if (!root || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => placeLatest.current());
    observer.observe(root);
    return () => observer.disconnect();
  }, []);

  // Full size, Tab and Shift+Tab go round the screen's controls, as in any modal: past the last (Full screen) the
  // keyboard comes back to the first rather than leaving for the inert page or the browser's own bar.
  const keepTabInside = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (corner || event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
    const controls = [...(chrome.current?.querySelectorAll<HTMLElement>('a[href], button:not(:disabled)') ?? [])];
    const first = controls[0];
    const last = controls.at(-1);
    if (!first || !last) return;
    const active = document.activeElement;
    const wraps = event.shiftKey ? active === first || active === overlay.current : active === last;
    if (!wraps) return;
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  };

  const toggleFullScreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void overlay.current?.requestFullscreen().catch(() => undefined);
  };
  const togglePause = () => {
    setPausedWithoutSound(!paused);
    if (paused) void soundEngine.resume();
    else soundEngine.pause();
  };
  const toggleCorner = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    if (corner) setCorner(false);
    else leaveFullSize(() => setCorner(true));
  };

  return createPortal(
    <div
      ref={overlay}
      data-testid="flash-overlay"
      data-mode={corner ? 'corner' : 'full'}
      role="dialog"
      aria-modal={!corner}
      aria-label="Subliminal session"
      tabIndex={-1}
      onPointerMove={reveal}
      onPointerDown={reveal}
      onKeyDown={(event) => {
        reveal();
        keepTabInside(event);
      }}
      onFocus={reveal}
      className={clsx(
        'fixed z-40 overflow-hidden outline-none',
        // On a phone a strip across the screen, resting on the mini-player; wider, a window in the corner.
        corner
          ? 'inset-x-0 bottom-[var(--portal-corner-bottom,0px)] h-28 rounded-t-2xl border-t border-line shadow-2xl sm:left-auto sm:right-4 sm:h-36 sm:w-[22rem] sm:rounded-2xl sm:border'
          : 'inset-0',
        !shown && !corner && 'cursor-none',
      )}
    >
      <SessionBackground background={look.background} tint={settings.messageColor} />
      {flash ? (
        <p
          key={flash.key}
          ref={message}
          data-testid="flash-message"
          aria-hidden
          className="pointer-events-none invisible absolute left-0 top-0 m-0 w-max break-words font-semibold leading-tight"
          style={{ color: settings.messageColor, fontSize: `${fontSize}px`, fontFamily: look.fontFamily }}
        >
          {flash.text}
        </p>
      ) : null}
      <div
        ref={chrome}
        data-testid="session-controls"
        data-shown={shown}
        onPointerEnter={() => (overControls.current = true)}
        onPointerLeave={() => {
          overControls.current = false;
          reveal();
        }}
        className={clsx(
          'absolute flex flex-wrap items-center border border-line bg-surface-raised/95 text-fg shadow-lg transition-opacity duration-300 motion-reduce:transition-none',
          corner
            ? 'inset-x-2 bottom-2 gap-2 rounded-xl p-2'
            : 'bottom-4 left-1/2 w-[min(44rem,calc(100%-1.5rem))] -translate-x-1/2 gap-x-4 gap-y-3 rounded-3xl p-3 sm:bottom-6',
          shown ? 'opacity-100' : 'opacity-0',
        )}
      >
        {corner ? null : (
          <div className="min-w-0 flex-1 basis-56">
            <SessionStatus paused={paused} compact={false} />
          </div>
        )}
        <div className={clsx('flex flex-wrap items-center gap-2 whitespace-nowrap', corner && 'w-full flex-nowrap')}>
          <Button
            variant="secondary"
            size={corner ? 'icon' : 'sm'}
            aria-label={corner ? (paused ? 'Resume' : 'Pause') : undefined}
            onClick={togglePause}
          >
            {paused ? <Play aria-hidden className="h-4 w-4" /> : <Pause aria-hidden className="h-4 w-4" />}
            {corner ? null : paused ? 'Resume' : 'Pause'}
          </Button>
          <Button
            variant="danger"
            size={corner ? 'icon' : 'sm'}
            aria-label={corner ? 'Stop' : undefined}
            onClick={stop}
          >
            <Square aria-hidden className="h-4 w-4" />
            {corner ? null : 'Stop'}
          </Button>
          <Button
            variant="secondary"
            size={corner ? 'icon' : 'sm'}
            aria-label={corner ? 'Back to full size' : undefined}
            onClick={toggleCorner}
          >
            {corner ? (
              <SquareArrowOutUpLeft aria-hidden className="h-4 w-4" />
            ) : (
              <PictureInPicture2 aria-hidden className="h-4 w-4" />
            )}
            {corner ? null : 'In a corner'}
          </Button>
          {corner ? (
            <div className="min-w-0 flex-1 text-xs">
              <SessionStatus paused={paused} compact />
            </div>
          ) : (
            <Button variant="secondary" size="sm" onClick={toggleFullScreen}>
              {fullScreen ? <Minimize aria-hidden className="h-4 w-4" /> : <Maximize aria-hidden className="h-4 w-4" />}
              {fullScreen ? 'Exit full screen' : 'Full screen'}
            </Button>
          )}
        </div>
        <span className="sr-only">{corner ? 'Press Escape here to stop.' : 'Press Escape to stop.'}</span>
      </div>
    </div>,
    document.body,
  );
}
