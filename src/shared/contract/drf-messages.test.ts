import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { audioTextFieldsSchema, DESCRIPTION_MAX, messagesFileSchema } from './admin';
import { drfMessage, maxElementsMessage } from './drf-messages';
import { passwordField } from './fields';
import {
  adminProgramWriteSchema,
  GOAL_IDS,
  PROGRAM_DAY_LAYERS_MAX,
  PROGRAM_DAY_MESSAGES_MAX,
  PROGRAM_DAYS_MAX,
  programDayWriteSchema,
} from './guidance';
import { ownMessageWriteSchema, playerWriteSchema, PLAYLIST_MAX } from './own';
import { OWN_MESSAGE_TEXT_MAX } from './portal-plain';
import { maxCharactersMessage } from './plain';
import { SUPPORT_MESSAGE_MAX, supportRequestWriteSchema } from './support';
import { MIX_LAYERS_MAX, soundMixSchema } from './sound-mix';
import { subliminalWriteSchema } from './subliminals';

// Without the server's DRF fallback (the browser checks with these schemas too): each list limit words
// itself as DRF's ListField does.
const LIST_LIMITS: Array<[string, z.ZodType, number]> = [
  ['player playlist', playerWriteSchema.shape.playlist, PLAYLIST_MAX],
  ['subliminal playlist', subliminalWriteSchema.shape.playlist, PLAYLIST_MAX],
  ['sound layers', soundMixSchema.shape.layers, MIX_LAYERS_MAX],
  ['program goals', adminProgramWriteSchema.shape.goals, GOAL_IDS.length],
  ['program days', adminProgramWriteSchema.shape.days, PROGRAM_DAYS_MAX],
  ['day messages', programDayWriteSchema.shape.messages, PROGRAM_DAY_MESSAGES_MAX],
  ['day layers', programDayWriteSchema.shape.layers, PROGRAM_DAY_LAYERS_MAX],
  ['imported categories', messagesFileSchema.shape.categories, 500],
];

describe('list limits', () => {
  it.each(LIST_LIMITS)('%s: "Ensure this field has no more than {n} elements."', (_name, schema, n) => {
    const result = schema.safeParse(Array.from({ length: n + 1 }, () => 'x'));
    const tooBig = result.error?.issues.filter((issue) => issue.code === 'too_big' && issue.path.length === 0);
    expect(tooBig?.map((issue) => issue.message)).toEqual([maxElementsMessage(n)]);
    expect(maxElementsMessage(n)).toBe(`Ensure this field has no more than ${n} elements.`);
  });
});

// Every text limit words its number as the spec and the character counts do: grouped by thousands.
const TEXT_LIMITS: Array<[string, z.ZodType, number, string]> = [
  ['support message', supportRequestWriteSchema.shape.message, SUPPORT_MESSAGE_MAX, '5,000'],
  ['audio description', audioTextFieldsSchema.shape.description, DESCRIPTION_MAX, '2,000'],
  ['login password', passwordField(), 4096, '4,096'],
  ['own message', ownMessageWriteSchema.shape.message_text, OWN_MESSAGE_TEXT_MAX, String(OWN_MESSAGE_TEXT_MAX)],
];

describe('text limits', () => {
  it.each(TEXT_LIMITS)(
    '%s: "Ensure this field has no more than {n} characters.", n grouped',
    (_name, schema, n, shown) => {
      const result = schema.safeParse('x'.repeat(n + 1));
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([maxCharactersMessage(n)]);
      expect(maxCharactersMessage(n)).toBe(`Ensure this field has no more than ${shown} characters.`);
    },
  );

  it('words a text limit a schema left unworded the same way (the server’s DRF fallback)', () => {
    const issue = { code: 'too_big', origin: 'string', maximum: 1500, input: '' } as unknown as Parameters<
      typeof drfMessage
    >[0];
    expect(drfMessage(issue)).toBe('Ensure this field has no more than 1,500 characters.');
  });
});
