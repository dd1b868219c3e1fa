import { HOME } from '@shared/constants';
import { Section } from './section';

const TESTIMONIALS = [
  {
    quote:
      'I put 528 Hz on while I plan my morning. It has become a small ritual that helps me settle before the day starts.',
    name: 'Maya R.',
    role: 'Designer, beta listener since January',
  },
  {
    quote:
      'The affirmations are subtle enough that they do not distract me, and writing my own made them feel personal.',
    name: 'Daniel K.',
    role: 'Software engineer',
  },
  {
    quote:
      'Ten minutes of binaural beats with headphones before bed. Simple, no ads, no pressure. That is what I wanted.',
    name: 'Aisha N.',
    role: 'Nurse working night shifts',
  },
] as const;

export function Testimonials() {
  return (
    <Section id="testimonials" eyebrow="From our listeners" title={`${HOME.meditatingClaim} with Innerwave`}>
      <ul className="grid gap-6 md:grid-cols-3">
        {TESTIMONIALS.map(({ quote, name, role }) => (
          <li key={name}>
            <figure className="flex h-full flex-col justify-between gap-6 rounded-3xl border border-line bg-surface-raised p-6">
              <blockquote className="text-lg leading-relaxed">“{quote}”</blockquote>
              <figcaption>
                <span className="block font-semibold">{name}</span>
                <span className="text-sm text-fg-muted">{role}</span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </Section>
  );
}
