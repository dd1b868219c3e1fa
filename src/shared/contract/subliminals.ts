import { z } from 'zod';
import { ownCategorySchema, playerSettingsSchema, playlistItemSchema, PLAYLIST_MAX, shareLinkSchema } from './own';
import { typedText } from './fields';
import { maxElements } from './drf-messages';
import { soundMixSchema } from './sound-mix';
import { maxCharacters } from './plain';
import { EXPORT_FORMATS } from './portal-plain';

export { EXPORT_FORMATS, type ExportFormat } from './portal-plain';

// Saved subliminals, share links, the public view of what is shared, and the export of one's own
// messages (docs/product/api.md#saved-and-shared).

export const SUBLIMINAL_NAME_MAX = 80;

const nameField = (stored?: string) => typedText(stored).max(SUBLIMINAL_NAME_MAX, maxCharacters(SUBLIMINAL_NAME_MAX));

/**
 * A saved subliminal as written: a name, its messages (at least one), the player settings and its
 * sound (the engine's layers and levels; null or left out: none saved, as in older ones). `stored`: the one a
 * replace writes over, whose name sent back as it is stored passes, though stored with a control character before
 * decision 063 refused them; typed anew, a name follows the rule
 * (docs/decisions/133-an-undo-keeps-to-the-limits-an-old-name-updates-offline-reads-as-waiting.md).
 */
export const subliminalWriteSchemaOf = (stored?: { name: string }) =>
  z.object({
    name: nameField(stored?.name),
    playlist: z
      .array(playlistItemSchema)
      .min(1, { error: 'A subliminal needs at least one message.' })
      .max(PLAYLIST_MAX, maxElements(PLAYLIST_MAX)),
    settings: playerSettingsSchema,
    sound: soundMixSchema.nullable().default(null),
  });
export const subliminalWriteSchema = subliminalWriteSchemaOf();
export type SubliminalWrite = z.infer<typeof subliminalWriteSchema>;

/**
 * A saved subliminal as read: its name as stored, not checked as a typed one, so one stored with a control character
 * before decision 063 refused them is read, opened and exported rather than answered with a 500 (decision 133).
 */
export const subliminalSchema = subliminalWriteSchema.extend({
  name: z.string(),
  id: z.number().int(),
  share: shareLinkSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Subliminal = z.infer<typeof subliminalSchema>;

/**
 * A subliminal as a save or an update answers it: with the names of the library tracks left out of
 * its sound because staff removed them while they played (docs/product/api.md#saved-and-shared).
 */
export const savedSubliminalSchema = subliminalSchema.extend({ gone_tracks: z.array(z.string()) });
export type SavedSubliminal = z.infer<typeof savedSubliminalSchema>;

/** The list: newest change first, without the messages. */
export const subliminalSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  message_count: z.number().int(),
  theme: z.string(),
  /** How many sound layers it starts with (0: none saved). */
  layer_count: z.number().int(),
  shared: z.boolean(),
  updated_at: z.string(),
});
export const subliminalListSchema = z.array(subliminalSummarySchema);
export type SubliminalSummary = z.infer<typeof subliminalSummarySchema>;

/** A share token: 128 random bits in base64url. Anything else names nothing (404). */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;
export const shareTokenParamsSchema = z.object({ token: z.string().regex(SHARE_TOKEN_PATTERN) });

/**
 * What a share link shows anyone, signed in or not: the name and the messages' texts (never an id,
 * an e-mail or anything else of the sharer's), and for a subliminal its settings.
 */
export const sharedItemSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('subliminal'),
    name: z.string(),
    messages: z.array(z.string()),
    settings: playerSettingsSchema,
    /**
     * Its sound as it can play: without the sharer's own music, which stays private (named in
     * `private_tracks`), and without library tracks removed since it was saved (named in `gone_tracks`).
     */
    sound: soundMixSchema.nullable(),
    private_tracks: z.array(z.string()),
    gone_tracks: z.array(z.string()),
    shared_at: z.string(),
  }),
  z.object({
    kind: z.literal('messages'),
    name: z.string(),
    messages: z.array(z.string()),
    shared_at: z.string(),
  }),
]);
export type SharedItem = z.infer<typeof sharedItemSchema>;
/** What the server read for a share page's link and hands the page (docs/decisions/024-the-server-fills-the-share-page.md). */
export type ServedShared = { status: 'ready'; item: SharedItem } | { status: 'gone' };

/**
 * Copying what is shared: with a `copy_key` (a UUID the browser makes for each press, kept until that press is
 * answered), the same press sent again, its first answer lost, is answered with the copy it made, 200, and nothing is
 * added. Without a body (older clients) each call copies
 * (docs/decisions/148-an-own-track-is-named-as-ones-own-and-a-copy-is-made-once-a-press.md).
 */
export const sharedCopyRequestSchema = z
  .object({ copy_key: z.uuid({ error: 'Must be a valid UUID.' }).optional() })
  .optional();
export type SharedCopyRequest = z.input<typeof sharedCopyRequestSchema>;

/** Copying what is shared into one's own account answers what was made. */
export const sharedCopySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('subliminal'), subliminal: subliminalSchema }),
  z.object({ kind: z.literal('messages'), category: ownCategorySchema }),
]);
export type SharedCopy = z.infer<typeof sharedCopySchema>;

export const exportQuerySchema = z.object({
  format: z.enum(EXPORT_FORMATS, { error: 'Choose txt, csv or json.' }).default('txt'),
});
