import { z } from 'zod';
import { playlistItemSchema } from './own';

export { VOICE_RECORDINGS } from './portal-plain';

// Recordings of one's own voice for the spoken affirmations (Pro; docs/product/api.md#own-voice):
// one per message text, so a message is spoken in the person's voice wherever it comes from.

export const voiceRecordingSchema = z.object({
  id: z.number().int(),
  /** The message it speaks, as the playlist holds it. */
  text: z.string(),
  /** A signed URL to play it, valid for a while like every media URL. */
  url: z.string(),
  duration_ms: z.number().int(),
  bytes: z.number().int(),
  created_at: z.string(),
});
export type VoiceRecording = z.infer<typeof voiceRecordingSchema>;
export const myVoiceSchema = z.object({
  recordings: z.array(voiceRecordingSchema),
  max_recordings: z.number().int(),
  max_seconds: z.number().int(),
});
export type MyVoice = z.infer<typeof myVoiceSchema>;
/** The upload's text field: a message as the playlist holds it. */
export const voiceRecordingFieldsSchema = z.object({ text: playlistItemSchema.shape.message_text });
