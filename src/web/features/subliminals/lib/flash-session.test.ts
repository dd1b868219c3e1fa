import { describe, expect, it } from 'vitest';
import type { MessageCategory } from '@shared/contract';
import { FLASHED_MESSAGES_TITLE, flashSessionTag } from './flash-session';

const confidence: MessageCategory = {
  id: 4,
  name: 'Confidence',
  messages: [
    { id: 41, message_text: 'I trust myself.' },
    { id: 42, message_text: 'I speak with ease.' },
  ],
};
const calm: MessageCategory = { id: 7, name: 'Calm', messages: [{ id: 71, message_text: 'I breathe slowly.' }] };

describe('flashSessionTag', () => {
  it('names a session of one library category by it, with its ref', () => {
    const playlist = confidence.messages.map((message) => ({ ...message, source: 'library' as const }));
    expect(flashSessionTag(playlist, [calm, confidence])).toEqual({ title: 'Confidence', ref: 'category:4' });
  });

  it('names mixed messages by their categories in playlist order, then one’s own, with no ref', () => {
    const playlist = [
      { id: 71, message_text: 'I breathe slowly.', source: 'library' as const },
      { id: 900, message_text: 'I am enough.', source: 'own' as const },
      { id: 41, message_text: 'I trust myself.', source: 'library' as const },
      { id: 42, message_text: 'I speak with ease.', source: 'library' as const },
    ];
    expect(flashSessionTag(playlist, [confidence, calm])).toEqual({ title: 'Calm + My messages + Confidence' });
  });

  it('falls back to a plain name while the categories are not known', () => {
    expect(flashSessionTag([{ id: 41, message_text: 'I trust myself.' }])).toEqual({ title: FLASHED_MESSAGES_TITLE });
  });
});
