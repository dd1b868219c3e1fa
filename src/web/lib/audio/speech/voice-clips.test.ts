import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MyVoice, VoiceRecording } from '@shared/contract';
import { OWN_VOICE } from '@shared/contract/portal-plain';
import { SPEECH_LEVEL_DB, speechLevel } from '../voice-take';
import { voiceClips } from './voice-clips';

// Recordings are fetched and decoded by the browser; here each one's URL names the level it was kept at.
const recordings: VoiceRecording[] = [];
vi.mock('@web/lib/api-client', () => ({
  apiRequest: vi.fn(async (): Promise<MyVoice> => ({ recordings, max_recordings: 100, max_seconds: 20 })),
}));
vi.mock('../microphone', () => ({
  decodeToTake: vi.fn(async (bytes: ArrayBuffer) => {
    const amplitude = new Float64Array(bytes)[0]!;
    // Half a second of words at that amplitude between two quarter-seconds of silence.
    const samples = new Float32Array(22_050);
    for (let n = 5_512; n < 16_537; n++) samples[n] = n % 2 ? amplitude : -amplitude;
    return { samples, sampleRate: 22_050 };
  }),
}));

const recording = (id: number, text: string, amplitude: number): VoiceRecording => ({
  id,
  text,
  url: `https://media.test/${amplitude}`,
  duration_ms: 1000,
  bytes: 44_144,
  created_at: `2026-11-2${id}T10:00:00Z`,
});

afterEach(() => vi.unstubAllGlobals());

describe('voice clips in one’s own voice', () => {
  it('speaks each recorded text at the one speech level, however loud it was kept, and leaves out the rest', async () => {
    // Kept before takes were levelled: one quiet (−32 dBFS), one loud (−8 dBFS).
    recordings.splice(0, recordings.length, recording(1, 'I am calm.', 0.025), recording(2, 'I rest.', 0.4));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => new Response(new Float64Array([Number(url.split('/').pop())]).buffer)),
    );
    const clips = await voiceClips(['I rest.', 'Not recorded.', 'I am calm.'], { voice: OWN_VOICE, rate: 1 });
    expect(clips).toHaveLength(2);
    for (const clip of clips)
      expect(20 * Math.log10(speechLevel(clip.samples, clip.sampleRate))).toBeCloseTo(SPEECH_LEVEL_DB, 1);
  });
});
