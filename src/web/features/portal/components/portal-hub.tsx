import { useEffect, type ReactNode } from 'react';
import { Link } from '@web/lib/link';
import {
  AppWindow,
  ArrowRight,
  AudioLines,
  CalendarDays,
  Headphones,
  LifeBuoy,
  LineChart,
  MessageSquareText,
  ShieldCheck,
  UserRound,
} from 'lucide-react';
import { BINAURAL_BANDS } from '@shared/constants';
import { CONTACT, SOLFEGGIO_FREQUENCIES } from '@web/lib/constants';
import { paths } from '@web/lib/paths';
import { IconBadge } from '@web/components/ui/icon-badge';
import { useSignedInAccount } from '@web/components/account';

const DESTINATIONS = [
  {
    to: paths.subliminals,
    icon: MessageSquareText,
    title: 'Subliminals',
    text: 'Build a playlist from our affirmation categories or your own messages, then let them flash gently on screen.',
  },
  {
    to: paths.music,
    icon: AudioLines,
    title: 'Meditations',
    text: 'The audio library: solfeggio tones from 174 Hz to 963 Hz, bonus soundscapes and custom tracks.',
  },
  {
    to: paths.music,
    icon: Headphones,
    title: 'Binaural beats',
    text: 'Choose a brainwave band and Innerwave generates the tones live in your browser. Headphones needed.',
  },
  {
    to: paths.programs,
    icon: CalendarDays,
    title: 'Programs',
    text: 'Guided programs a day at a time, for sleep, calm, focus and more, that keep your place between visits.',
  },
  {
    to: paths.practice,
    icon: LineChart,
    title: 'Your practice',
    text: 'What you listened to and for how long, seen only by you, with a gentle daily reminder if you want one.',
  },
  {
    to: paths.applications,
    icon: AppWindow,
    title: 'Applications',
    text: 'The desktop app for Windows, to keep your affirmations with you while you work, once it is published.',
  },
  { to: paths.profile, icon: UserRound, title: 'Profile', text: 'Your name, picture and plan, in one place.' },
  {
    to: paths.support,
    icon: LifeBuoy,
    title: 'Support',
    text: 'Write to us from your account, with a copy by e-mail if you like; paid plans are answered first.',
  },
] as const;

/**
 * The public portal home (docs/product/screens.md#portal-home): where everything is, a short honest primer, and how to
 * reach us. `personal`: the signed-in person's suggestions, composed by the app (never pre-rendered). `framed`: the
 * hub as its pre-rendered portal frame shows it, to a signed-in visit only: its top, as their suggestions come below.
 */
export function PortalHub({ personal, framed = false }: { personal?: ReactNode; framed?: boolean } = {}) {
  // Pre-rendered signed out; someone signed in is not asked to sign in (a sentence of about the same length).
  const signedIn = useSignedInAccount() !== null || framed;
  useEffect(() => {
    document.title = 'Portal · Innerwave';
  }, []);
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16 in-portal:p-0">
      <header className="max-w-3xl">
        <p className="text-sm font-semibold uppercase tracking-[0.18em] text-link">Innerwave portal</p>
        <h1 className="mt-3 text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
          Everything for your practice, in one place
        </h1>
        <p className="mt-4 text-lg text-fg-muted">
          Affirmations, meditation audio, binaural beats and the desktop app.{' '}
          {signedIn
            ? 'Pick up where you left off; your messages and settings follow your account.'
            : 'Sign in to use them; your messages and settings follow your account.'}
        </p>
      </header>

      {framed ? null : (
        <>
          {personal}
          <HubSections />
        </>
      )}
    </div>
  );
}

/** Below the hub's top: what the portal offers, the primer, and how to reach us. */
function HubSections() {
  return (
    <>
      <section aria-labelledby="offers-title" className="mt-14">
        <h2 id="offers-title" className="text-2xl font-semibold tracking-tight">
          What the portal offers
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {DESTINATIONS.map(({ to, icon: Icon, title, text }) => (
            <li key={title}>
              <Link
                to={to}
                className="group flex h-full flex-col gap-3 rounded-3xl border border-line bg-surface-raised p-6 transition-shadow hover:shadow-lg"
              >
                <IconBadge icon={Icon} size="md" />
                <span className="flex items-center gap-2 text-lg font-semibold">
                  {title}
                  <ArrowRight aria-hidden className="h-4 w-4 transition-transform group-hover:translate-x-0.5" />
                </span>
                <span className="text-fg-muted">{text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section id="learn" aria-labelledby="learn-title" className="mt-20 grid scroll-mt-24 gap-10 lg:grid-cols-2">
        <div className="lg:col-span-2">
          <h2 id="learn-title" className="text-2xl font-semibold tracking-tight">
            Learn
          </h2>
          <p className="mt-2 max-w-2xl text-fg-muted">
            A short, honest primer. These are tools for relaxation and attention, not treatments; the science on
            specific effects is still limited, so notice what works for you.
          </p>
        </div>
        <article className="rounded-3xl border border-line bg-surface-raised p-6">
          <h3 className="text-lg font-semibold">Solfeggio frequencies</h3>
          <p className="mt-2 text-fg-muted">
            A set of pure tones named after an old musical scale. Each has a traditional theme; many people use one as a
            steady anchor for attention during meditation. Play them softly, with or without headphones.
          </p>
          <ul className="mt-4 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
            {SOLFEGGIO_FREQUENCIES.map((frequency) => (
              <li key={frequency.hz} className="flex justify-between gap-2 border-b border-line py-1.5">
                <span className="font-medium tabular-nums">{frequency.hz} Hz</span>
                <span className="text-fg-muted">{frequency.name}</span>
              </li>
            ))}
          </ul>
        </article>
        <article className="rounded-3xl border border-line bg-surface-raised p-6">
          <h3 className="text-lg font-semibold">Binaural beats</h3>
          <p className="mt-2 text-fg-muted">
            Two tones, a few hertz apart, one in each ear. Your brain hears a gentle “beat” at the difference between
            them. You need headphones for the effect. Innerwave lets you pick the beat from five brainwave bands:
          </p>
          <ul className="mt-4 flex flex-col gap-2 text-sm">
            {BINAURAL_BANDS.map((band) => (
              <li key={band.name}>
                <span className="font-medium">
                  {band.name} ({band.bandHz[0]}–{band.bandHz[1]} Hz):
                </span>{' '}
                <span className="text-fg-muted">{band.description}</span>
              </li>
            ))}
          </ul>
          <p className="mt-4 flex gap-2 text-sm text-fg-muted">
            <ShieldCheck aria-hidden className="h-5 w-5 shrink-0 text-link" />
            Keep the volume low, never listen while driving, and talk to a doctor first if you have epilepsy or a heart
            condition.
          </p>
        </article>
      </section>

      <section
        id="contact"
        aria-labelledby="contact-title"
        className="mt-20 scroll-mt-24 rounded-[2rem] border border-line bg-surface-raised p-8 sm:p-10"
      >
        <div className="flex flex-col gap-6 sm:flex-row sm:items-start">
          <IconBadge icon={LifeBuoy} />
          <div>
            <h2 id="contact-title" className="text-2xl font-semibold tracking-tight">
              Contact
            </h2>
            <p className="mt-2 text-fg-muted">
              Questions, ideas or trouble with your account? Our support team answers within{' '}
              {CONTACT.supportResponseBusinessHours} business hours. Signed in, use the{' '}
              <Link to={paths.support} className="text-link underline underline-offset-4">
                support form
              </Link>
              ; Intermediate and Pro requests are answered first.
            </p>
            <dl className="mt-4 grid gap-2 sm:grid-cols-[auto_1fr] sm:gap-x-6">
              <dt className="font-medium">Support</dt>
              <dd>
                <a
                  href={`mailto:${CONTACT.supportEmail}`}
                  className="text-link underline underline-offset-4 pointer-coarse:inline-block pointer-coarse:py-3"
                >
                  {CONTACT.supportEmail}
                </a>
              </dd>
              <dt className="font-medium">Privacy</dt>
              <dd>
                <a
                  href={`mailto:${CONTACT.privacyEmail}`}
                  className="text-link underline underline-offset-4 pointer-coarse:inline-block pointer-coarse:py-3"
                >
                  {CONTACT.privacyEmail}
                </a>
              </dd>
            </dl>
            <p className="mt-4 text-sm text-fg-muted">
              Read our{' '}
              <Link to={paths.terms} className="text-link underline underline-offset-4">
                terms and conditions
              </Link>{' '}
              and{' '}
              <Link to={paths.privacy} className="text-link underline underline-offset-4">
                privacy policy
              </Link>
              .
            </p>
          </div>
        </div>
      </section>
    </>
  );
}
