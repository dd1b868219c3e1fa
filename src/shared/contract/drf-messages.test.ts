import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { messagesFileSchema } from './admin';
import { maxElementsMessage } from './drf-messages';
import {
  adminProgramWriteSchema,
  GOAL_IDS,
  PROGRAM_DAY_LAYERS_MAX,
  PROGRAM_DAY_MESSAGES_MAX,
  PROGRAM_DAYS_MAX,
  programDayWriteSchema,
} from './guidance';
import { playerWriteSchema, PLAYLIST_MAX } from './own';
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
