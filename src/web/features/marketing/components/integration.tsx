import { lazy, useState } from 'react';
import { Link } from '@web/lib/link';
import { Apple, Bot, Globe, Monitor, Smartphone } from 'lucide-react';
import { paths } from '@web/lib/paths';
import { Button } from '@web/components/ui/button';
import { Section } from './section';
import { LazyMount } from '@web/components/lazy-mount';
import { IconBadge } from '@web/components/ui/icon-badge';

const UnderDevelopmentDialog = lazy(() => import('./under-development-dialog'));

const PLACES = [
  {
    icon: Globe,
    title: 'In your browser',
    text: 'The full portal runs in any modern browser. Sign in and your messages and settings are there.',
  },
  {
    icon: Monitor,
    title: 'On your Windows desktop, soon',
    text: 'A light desktop app that flashes your affirmations over whatever you are working on. It is not published yet: once it is, members download it under Applications in the portal.',
  },
  {
    icon: Smartphone,
    title: 'On your phone, soon',
    text: 'Android and iOS apps are in development. We will share news here first.',
  },
] as const;

/** The integration section with the download buttons (docs/product/screens.md#home). */
export function Integration() {
  const [comingSoon, setComingSoon] = useState<string | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const announce = (feature: string) => {
    setComingSoon(feature);
    setDialogOpen(true);
  };
  return (
    <Section
      id="integration"
      eyebrow="Works where you are"
      title="One practice across your devices"
      intro="Your playlists and settings follow your account, so a session started at your desk can continue wherever you are."
    >
      <ul className="grid gap-6 md:grid-cols-3">
        {PLACES.map(({ icon: Icon, title, text }) => (
          <li key={title} className="flex gap-4">
            <IconBadge icon={Icon} size="md" />
            <div>
              <h3 className="font-semibold">{title}</h3>
              <p className="mt-1 text-fg-muted">{text}</p>
            </div>
          </li>
        ))}
      </ul>
      <div id="download" className="mt-12 flex flex-wrap items-center gap-3">
        <h3 className="mr-2 w-full text-sm font-semibold text-fg-muted sm:w-auto">Download Innerwave</h3>
        <Button variant="secondary" aria-haspopup="dialog" onClick={() => announce('The Android app')}>
          <Bot aria-hidden className="h-5 w-5" /> Android
        </Button>
        <Button variant="secondary" aria-haspopup="dialog" onClick={() => announce('The iOS app')}>
          <Apple aria-hidden className="h-5 w-5" /> iOS
        </Button>
        <Button asChild variant="secondary">
          <Link to={paths.applications}>
            <Monitor aria-hidden className="h-5 w-5" /> Windows
          </Link>
        </Button>
      </div>
      <LazyMount when={dialogOpen}>
        <UnderDevelopmentDialog open={dialogOpen} onOpenChange={setDialogOpen} feature={comingSoon ?? 'This feature'} />
      </LazyMount>
    </Section>
  );
}
