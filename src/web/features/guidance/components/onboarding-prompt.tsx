import { useEffect, useRef, useState, type RefObject } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Compass } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { Button } from '@web/components/ui/button';
import { isAdminPath, paths } from '@web/lib/paths';
import { keyboardToPageHeadingOnceGone } from '@web/lib/keyboard-after-removal';
import { rememberInvitation } from '@web/lib/portal-frame';
import { guidanceKeys, onboardingQuery, saveOnboarding } from '../api/guidance';
import { clearOnboardingDraft } from '../lib/onboarding-draft';

/** Whether the onboarding is still to be offered: never answered and never skipped. */
export const onboardingPending = (onboarding: { completed_at: string | null; skipped: boolean } | undefined) =>
  onboarding !== undefined && onboarding.completed_at === null && !onboarding.skipped;

/**
 * Whether the invitation may go above the page at `pathname`: the member portal's pages, not the
 * onboarding itself nor staff's admin pages (docs/product/screens.md#welcome).
 */
export const invitationGoesAbove = (pathname: string) => pathname !== paths.welcome && !isAdminPath(pathname);

/** How long a portal page waits, at most, to know whether the invitation goes above it. */
export const ONBOARDING_WAIT_MS = 1000;

/**
 * Whether the page should wait to show itself: the invitation's answer is not here yet (at most
 * ONBOARDING_WAIT_MS). Shown after the page, the invitation would push the whole page down. An admin
 * page, which the invitation never goes above, shows at once.
 */
export function useOnboardingSettling() {
  const admin = isAdminPath(useLocation().pathname);
  // An admin page does not ask for the answer it would not use.
  const { isPending } = useQuery({ ...onboardingQuery(), enabled: !admin });
  const [waited, setWaited] = useState(false);
  // Only while it is pending: a timer that fired after the answer would re-render the portal's whole
  // layout for nothing, one long task at load on a phone.
  useEffect(() => {
    if (!isPending) return;
    const timer = window.setTimeout(() => setWaited(true), ONBOARDING_WAIT_MS);
    return () => window.clearTimeout(timer);
  }, [isPending]);
  return isPending && !waited && !admin;
}

/** Where the invitation ends in the window, for the toasts to start below it (app/themed-toaster.tsx). */
export const NOTICE_BOTTOM_VAR = '--portal-notice-bottom';

/**
 * Keeps NOTICE_BOTTOM_VAR on the page at the bottom edge of `element` in the window while it is shown (as it
 * scrolls, or its text wraps anew), so a toast never covers the invitation or its buttons.
 */
function usePublishedBottom(element: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const node = element.current;
    if (!node) return;
    const style = document.documentElement.style;
    let frame = 0;
    const publish = () => {
      frame = 0;
      style.setProperty(NOTICE_BOTTOM_VAR, `${Math.round(node.getBoundingClientRect().bottom)}px`);
    };
    const soon = () => {
      if (!frame) frame = requestAnimationFrame(publish);
    };
    publish();
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(soon);
    resized?.observe(node);
    window.addEventListener('scroll', soon, { passive: true });
    window.addEventListener('resize', soon);
    return () => {
      cancelAnimationFrame(frame);
      resized?.disconnect();
      window.removeEventListener('scroll', soon);
      window.removeEventListener('resize', soon);
      style.removeProperty(NOTICE_BOTTOM_VAR);
    };
  }, [element]);
}

/**
 * A calm invitation at the top of the member portal's pages after the first login
 * (docs/product/screens.md#welcome), until the onboarding is answered or skipped; never on admin pages. It covers nothing: the page stays usable under it.
 */
export function OnboardingPrompt() {
  const { pathname } = useLocation();
  const query = useQuery({ ...onboardingQuery(), enabled: !isAdminPath(pathname) });
  const queryClient = useQueryClient();
  const card = useRef<HTMLElement>(null);
  const skip = useMutation({
    mutationFn: () => saveOnboarding({ skipped: true }),
    onSuccess: (saved) => {
      // "Not now" goes with the card: the keyboard goes to the page's heading, under where the card was.
      keyboardToPageHeadingOnceGone(card.current)();
      clearOnboardingDraft();
      queryClient.setQueryData(guidanceKeys.onboarding, saved);
    },
  });
  const invited = onboardingPending(query.data) && !skip.isSuccess;
  useEffect(() => {
    if (query.data) rememberInvitation(invited);
  }, [query.data, invited]);
  if (!invited || !invitationGoesAbove(pathname)) return null;
  return <InvitationCard card={card} onSkip={() => skip.mutate()} skipping={skip.isPending} />;
}

/**
 * The invitation as a portal page's pre-rendered frame shows it, inert, until the app's own takes its place
 * (app/documents/portal-frame.tsx): the same card, so the page under it starts where it will.
 */
export function FramedInvitation() {
  const card = useRef<HTMLElement>(null);
  return <InvitationCard card={card} skipping={false} />;
}

function InvitationCard({
  card,
  onSkip,
  skipping,
}: {
  card: RefObject<HTMLElement | null>;
  /** Absent in the frame, where nothing can be pressed. */
  onSkip?: () => void;
  skipping: boolean;
}) {
  usePublishedBottom(card);
  return (
    <section
      ref={card}
      aria-label="Getting started"
      className="portal-notice mx-auto mb-8 flex max-w-6xl flex-wrap items-center gap-4 rounded-3xl border border-line bg-surface-raised p-5"
    >
      <Compass aria-hidden className="h-6 w-6 shrink-0 text-link" />
      <div className="min-w-0 flex-1 basis-64">
        <p className="font-semibold">New here? Tell us what you would like from Innerwave.</p>
        <p className="text-sm text-fg-muted">
          Three short questions, and we suggest where to start. Skip them if you prefer.
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button asChild size="sm">
          <Link to={paths.welcome}>Set up your practice</Link>
        </Button>
        <Button variant="ghost" size="sm" onClick={onSkip} busy={skipping}>
          Not now
        </Button>
      </div>
    </section>
  );
}
