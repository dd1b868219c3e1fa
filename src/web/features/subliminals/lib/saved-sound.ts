import type { QueryClient } from '@tanstack/react-query';
import type { AudioKind, MixLayer, SavedSubliminal, SoundMix } from '@shared/contract';
import { AUDIO_KINDS, MIX_GAIN_DB, OWN_VOICE } from '@shared/contract/portal-plain';
import type { SubscriptionPlan } from '@shared/constants';
import { mixLayerLabel, playableMix } from '@shared/sound-mix';
import { MEDIA_LINKS_REFETCH_MS } from '@web/lib/api-client';
import { soundEngine } from '@web/lib/audio/app-engine';
import { dbToGain, gainToDb } from '@web/lib/audio/mixer';
import { libraryListQuery, ownMusicQuery } from '@web/lib/audio/track-lists';
import type { LayerId, LayerSource, SoundEngineState } from '@web/lib/audio/sound-engine';
import { buildVoiceLoop, DEFAULT_VOICE_PAUSE_SECONDS, MAX_SPOKEN_MESSAGES } from '@web/lib/audio/voice-loop';
import { isolated } from '@shared/contract/plain';
import { NOT_IN_LIBRARY, NOT_IN_OWN_MUSIC } from '@web/lib/audio/gone-track-text';
import type { PortalVisit } from '@web/lib/portal-presence';
import { skippedNote, type SkippedLayer } from './mix-text';

// A saved subliminal's sound on the portal's one engine (docs/product/screens.md#subliminals,
// decision 021): saving reads the engine's layers and levels; opening starts exactly those, less what
// the person's plan does not play or what no longer exists, each named with the reason.

const DEFAULT_VOICE = { voice: 'en-us', rate: 145, pause: DEFAULT_VOICE_PAUSE_SECONDS };

/** A gain as the contract keeps it: dB of full scale, to 0.1 dB, within the engine's −60…0. */
const toDb = (gain: number) =>
  Math.min(MIX_GAIN_DB.max, Math.max(MIX_GAIN_DB.min, Math.round(gainToDb(gain) * 10) / 10));

/** A track's engine key (`selfeggio:3`, `own:7`) as the library or own track it names. */
function trackOf(key: string): { kind: AudioKind | 'own'; id: number } | null {
  const [kind, id] = key.split(':');
  const number = Number(id);
  if (!Number.isInteger(number) || number < 1) return null;
  if (kind === 'own') return { kind, id: number };
  return AUDIO_KINDS.includes(kind as AudioKind) ? { kind: kind as AudioKind, id: number } : null;
}

/** The engine's sound as a saved mix, or null when nothing plays. */
export function mixFromEngine(state: SoundEngineState): SoundMix | null {
  const layers = state.layers.flatMap((layer): MixLayer[] => {
    const gain_db = toDb(layer.gain);
    const source = layer.source;
    switch (source.kind) {
      case 'track': {
        const track = trackOf(source.key);
        if (!track) return [];
        const name = source.title.slice(0, 120) || 'Track';
        return track.kind === 'own'
          ? [{ kind: 'own_track', track_id: track.id, name, gain_db }]
          : [{ kind: 'track', audio_kind: track.kind, track_id: track.id, name, gain_db }];
      }
      case 'binaural':
        return [{ kind: 'binaural', left_hz: source.leftHz, right_hz: source.rightHz, gain_db }];
      case 'isochronic':
        return [{ kind: 'isochronic', carrier_hz: source.carrierHz, pulse_hz: source.pulseHz, gain_db }];
      case 'noise':
        return [{ kind: 'noise', colour: source.colour, gain_db }];
      case 'voice': {
        const spoken = source.spoken ?? DEFAULT_VOICE;
        return [
          {
            kind: 'voice',
            voice: spoken.voice,
            rate: spoken.rate,
            pause_s: spoken.pause,
            level_db: source.level,
            gain_db,
          },
        ];
      }
    }
  });
  return layers.length > 0 ? { volume: Math.round(state.volume * 100) / 100, layers } : null;
}

/** The engine key of a saved track layer (`selfeggio:3`, `own:7`), as `trackOf` reads it back. */
const engineKeyOf = (layer: Extract<MixLayer, { kind: 'track' | 'own_track' }>) =>
  layer.kind === 'own_track' ? `own:${layer.track_id}` : `${layer.audio_kind}:${layer.track_id}`;

/**
 * What a save left out of the sound it was sent, in words ("Left out: ⁨Sea⁩ (no longer in your
 * music)."; null: nothing): the track that played but was removed meanwhile (a library track staff
 * removed, or an own track deleted in another tab), which the server names in `gone_tracks`. A sound
 * has one track slot, so the track sent tells which it was. That track stops, if it still plays, as
 * its file is gone: what plays is then what was saved.
 */
export function leftOutOfSave(sent: SoundMix | null, saved: SavedSubliminal): string | null {
  const track = sent?.layers.find((layer) => layer.kind === 'track' || layer.kind === 'own_track');
  const reason = track?.kind === 'own_track' ? NOT_IN_OWN_MUSIC : NOT_IN_LIBRARY;
  const note = skippedNote(saved.gone_tracks.map((name) => ({ label: isolated(name), reason })));
  if (!note || !track) return note;
  const kept = saved.sound?.layers.some((layer) => layer.kind === track.kind && layer.track_id === track.track_id);
  const playing = soundEngine.getState().layers.find((layer) => layer.id === 'track')?.source;
  if (!kept && playing?.kind === 'track' && playing.key === engineKeyOf(track)) soundEngine.removeLayer('track');
  return note;
}

/** What `plan` will play of a mix and what it leaves out, before anything is fetched. */
export function planMix(mix: SoundMix, plan: SubscriptionPlan | null) {
  const { layers, leftOut } = playableMix(mix, plan);
  return {
    layers,
    skipped: leftOut.map(({ layer, reason }) => ({ label: mixLayerLabel(layer), reason })),
  };
}

async function librarySource(queryClient: QueryClient, layer: Extract<MixLayer, { kind: 'track' }>) {
  const items = await queryClient.fetchQuery({
    ...libraryListQuery(layer.audio_kind),
    staleTime: MEDIA_LINKS_REFETCH_MS / 2,
  });
  const item = items.find((candidate) => candidate.id === layer.track_id);
  return item
    ? ({ kind: 'track', key: `${layer.audio_kind}:${item.id}`, title: item.name, url: item.audio_file } as const)
    : null;
}

async function ownSource(queryClient: QueryClient, layer: Extract<MixLayer, { kind: 'own_track' }>) {
  // Asked anew (a track deleted in another tab is gone), into the list the portal watches while it plays.
  const music = await queryClient.fetchQuery({ ...ownMusicQuery(), staleTime: 0 });
  const track = music.tracks.find((candidate) => candidate.id === layer.track_id);
  return track ? ({ kind: 'track', key: `own:${track.id}`, title: track.name, url: track.url } as const) : null;
}

/** The voice layer of a saved sound, or why it cannot play. */
async function voiceSource(layer: Extract<MixLayer, { kind: 'voice' }>, messages: readonly string[]) {
  const texts = messages.slice(0, MAX_SPOKEN_MESSAGES);
  if (texts.length === 0) return 'there are no messages to speak';
  // eSpeak NG loads only when a saved sound has a synthesised voice (decision 019).
  const { voiceClips } = await import('@web/lib/audio/speech/voice-clips');
  const spoken = { voice: layer.voice, rate: layer.rate, pause: layer.pause_s };
  const clips = await voiceClips(texts, spoken);
  if (clips.length === 0 && layer.voice === OWN_VOICE) return 'none of these messages is recorded in your voice';
  const loop = buildVoiceLoop(clips, layer.pause_s);
  if (!loop) return 'there are no messages to speak';
  return { kind: 'voice', loop, messages: clips.length, level: layer.level_db, spoken } as const;
}

const SLOT: Record<MixLayer['kind'], LayerId> = {
  track: 'track',
  own_track: 'track',
  binaural: 'binaural',
  isochronic: 'isochronic',
  noise: 'noise',
  voice: 'voice',
};

/**
 * Replaces whatever plays with a saved sound: the layers `plan` plays, at their saved levels and
 * volume. A track no longer in the library or in the person's music is skipped, as is a voice
 * that cannot be prepared; what was skipped comes back with the reason. Rejects when audio cannot
 * start at all, and with PortalLeftError, starting nothing, when the portal `visit` of the press that
 * asked for it has ended meanwhile (decision 085).
 */
export async function startSavedSound(
  mix: SoundMix,
  {
    plan,
    messages,
    queryClient,
    visit,
  }: { plan: SubscriptionPlan | null; messages: readonly string[]; queryClient: QueryClient; visit: PortalVisit },
): Promise<{ started: number; skipped: SkippedLayer[] }> {
  // A library track removed since the sound was saved is left out before the plan is asked, so it does
  // not take a free account's one layer from one that can play.
  const skipped: SkippedLayer[] = [];
  const present: MixLayer[] = [];
  const inLibrary = new Map<MixLayer, LayerSource>();
  for (const layer of mix.layers) {
    const found = layer.kind === 'track' ? await librarySource(queryClient, layer).catch(() => undefined) : undefined;
    if (found === null) skipped.push({ label: mixLayerLabel(layer), reason: NOT_IN_LIBRARY });
    else present.push(layer);
    if (found) inLibrary.set(layer, found);
  }
  const planned = planMix({ ...mix, layers: present }, plan);
  skipped.push(...planned.skipped);
  const ready: Array<{ id: LayerId; source: LayerSource; gain: number }> = [];
  for (const layer of planned.layers) {
    const label = mixLayerLabel(layer);
    let source: LayerSource | null = null;
    try {
      switch (layer.kind) {
        case 'track':
          source = inLibrary.get(layer) ?? (await librarySource(queryClient, layer));
          if (!source) skipped.push({ label, reason: NOT_IN_LIBRARY });
          break;
        case 'own_track':
          source = await ownSource(queryClient, layer);
          if (!source) skipped.push({ label, reason: NOT_IN_OWN_MUSIC });
          break;
        case 'voice': {
          const voice = await voiceSource(layer, messages);
          if (typeof voice === 'string') skipped.push({ label, reason: voice });
          else source = voice;
          break;
        }
        case 'binaural':
          source = { kind: 'binaural', leftHz: layer.left_hz, rightHz: layer.right_hz };
          break;
        case 'isochronic':
          source = { kind: 'isochronic', carrierHz: layer.carrier_hz, pulseHz: layer.pulse_hz };
          break;
        case 'noise':
          source = { kind: 'noise', colour: layer.colour };
      }
    } catch {
      skipped.push({ label, reason: 'it could not be loaded' });
    }
    if (source) ready.push({ id: SLOT[layer.kind], source, gain: dbToGain(layer.gain_db) });
  }
  visit.check();
  soundEngine.stop();
  if (ready.length === 0) return { started: 0, skipped };
  soundEngine.setVolume(mix.volume);
  const [first, ...rest] = ready;
  await Promise.all([
    soundEngine.setLayer(first!.id, first!.source, first!.gain, { exclusive: true }),
    ...rest.map((layer) => soundEngine.setLayer(layer.id, layer.source, layer.gain)),
  ]);
  return { started: ready.length, skipped };
}
