import { AudioLines, Brain, MessageSquareText } from 'lucide-react';
import { Section } from './section';
import { IconBadge } from '@web/components/ui/icon-badge';

const PILLARS = [
  {
    icon: MessageSquareText,
    title: 'Subliminal affirmations',
    text: 'Choose from hundreds of gentle, positive messages, or write your own, and let them flash quietly on screen while you work or rest.',
  },
  {
    icon: AudioLines,
    title: 'Solfeggio and meditation audio',
    text: 'Full-length tones from 174 Hz to 963 Hz, plus soft noise and drone tracks for winding down, focusing or falling asleep.',
  },
  {
    icon: Brain,
    title: 'Binaural beats in your browser',
    text: 'Pick a brainwave band and Innerwave builds the two tones live, left and right. Nothing to download, put on headphones and breathe.',
  },
] as const;

export function About() {
  return (
    <Section
      id="about"
      eyebrow="About Innerwave"
      title="A quiet place for your daily practice"
      intro="Innerwave is a small, independent product in open beta. We make simple tools that help you set an intention, slow down and listen. No streaks to chase, no noise."
    >
      <ul className="grid gap-6 md:grid-cols-3">
        {PILLARS.map(({ icon: Icon, title, text }) => (
          <li key={title} className="rounded-3xl border border-line bg-surface-raised p-6">
            <IconBadge icon={Icon} />
            <h3 className="mt-5 text-lg font-semibold">{title}</h3>
            <p className="mt-2 text-fg-muted">{text}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
