import { z } from 'zod';

export { AUDIO_KINDS, AUDIO_LIBRARIES, type AudioKind } from './portal-plain';

// Portal content: desktop applications, message categories and the three audio libraries
// (docs/product/content.md, api.md).

export const desktopApplicationSchema = z.object({
  id: z.number().int(),
  application_version: z.string(),
  description: z.string(),
  /** Signed absolute URL (under /media/, or the S3 storage's own presigned one). */
  application_file: z.string(),
});
export type DesktopApplication = z.infer<typeof desktopApplicationSchema>;
export const desktopApplicationListSchema = z.array(desktopApplicationSchema);

export const messageSchema = z.object({ id: z.number().int(), message_text: z.string() });
export type Message = z.infer<typeof messageSchema>;

export const messageCategorySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  messages: z.array(messageSchema),
});
export type MessageCategory = z.infer<typeof messageCategorySchema>;
export const messageCategoryListSchema = z.array(messageCategorySchema);

export const audioItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  /** Signed absolute URLs (under /media/, or the S3 storage's own presigned ones). */
  cover_image: z.string().nullable(),
  audio_file: z.string(),
  /** ISO 8601 timestamp. */
  date_added: z.string(),
});
export type AudioItem = z.infer<typeof audioItemSchema>;
export const audioItemListSchema = z.array(audioItemSchema);

/**
 * The audio libraries as a whole: `preparing` while the seeded tracks are still being built (the first
 * start, about a minute), so an empty or short list is said to be on its way rather than empty.
 */
export const audioLibraryStateSchema = z.object({ preparing: z.boolean() });
export type AudioLibraryState = z.infer<typeof audioLibraryStateSchema>;
