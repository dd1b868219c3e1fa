import type { QueryClient } from '@tanstack/react-query';
import type { ProgramDay, ProgramLayer } from '@shared/contract';
import { MEDIA_LINKS_REFETCH_MS } from '@web/lib/api-client';
import { soundEngine } from '@web/lib/audio/app-engine';
import { sessionEnds } from '@web/lib/audio/app-session-ends';
import { DEFAULT_FADE_OUT_SECONDS } from '@web/lib/audio/mixer';
import { libraryListQuery } from '@web/lib/audio/track-lists';
import type { LayerId, LayerSource } from '@web/lib/audio/sound-engine';

// A program day's session on the portal's one sound engine (docs/decisions/016): its layers at
// their levels, the sleep timer set to the day's length, and the session tagged with the program
// and day, so its end is recorded (components/practice-recorder.ts) and, played to the end, marks
// the day done.

export interface DayLayer {
  id: LayerId;
  source: LayerSource;
  gain: number;
}

/** The library track a layer names, with a fresh signed URL (the same list the Meditations page reads). */
async function trackSource(queryClient: QueryClient, layer: Extract<ProgramLayer, { kind: 'track' }>) {
  if (layer.track_id === null) return null;
  const items = await queryClient.fetchQuery({
    ...libraryListQuery(layer.audio_kind),
    staleTime: MEDIA_LINKS_REFETCH_MS / 2,
  });
  const item = items.find((candidate) => candidate.id === layer.track_id);
  if (!item) return null;
  const source: LayerSource = {
    kind: 'track',
    key: `${layer.audio_kind}:${item.id}`,
    title: item.name,
    url: item.audio_file,
  };
  return source;
}

/** Why a layer of a day does not play here. */
export type LeftOut = 'headphones' | 'plan';

/**
 * Which of a day's layers play for this person: binaural beats need headphones; without sound layers in
 * the plan (Basic) the day's first sound plays alone: one sound at a time, as on the Meditations page
 * (docs/product/plans.md). A track no longer in the library plays nowhere (its label says so).
 */
export function daySound(
  layers: readonly ProgramLayer[],
  { headphones, layered }: { headphones: boolean | null; layered: boolean },
): { playing: ProgramLayer[]; leftOut: { layer: ProgramLayer; why: LeftOut }[] } {
  const playing: ProgramLayer[] = [];
  const leftOut: { layer: ProgramLayer; why: LeftOut }[] = [];
  for (const layer of layers) {
    if (layer.kind === 'track' && layer.track_id === null) continue;
    if (layer.kind === 'binaural' && headphones === false) leftOut.push({ layer, why: 'headphones' });
    else if (layered || playing.length === 0) playing.push(layer);
    else leftOut.push({ layer, why: 'plan' });
  }
  return { playing, leftOut };
}

/** The engine layers of the layers that play (daySound); a track no longer in the library is skipped. */
export async function dayLayers(queryClient: QueryClient, playing: readonly ProgramLayer[]): Promise<DayLayer[]> {
  const layers: DayLayer[] = [];
  for (const layer of playing) {
    switch (layer.kind) {
      case 'track': {
        const source = await trackSource(queryClient, layer);
        if (source) layers.push({ id: 'track', source, gain: layer.gain });
        break;
      }
      case 'binaural':
        layers.push({
          id: 'binaural',
          source: { kind: 'binaural', leftHz: layer.left_hz, rightHz: layer.right_hz },
          gain: layer.gain,
        });
        break;
      case 'isochronic':
        layers.push({
          id: 'isochronic',
          source: { kind: 'isochronic', carrierHz: layer.carrier_hz, pulseHz: layer.pulse_hz },
          gain: layer.gain,
        });
        break;
      case 'noise':
        layers.push({ id: 'noise', source: { kind: 'noise', colour: layer.colour }, gain: layer.gain });
    }
  }
  return layers;
}

/** Starts a day's session, replacing whatever played; rejects when nothing can play. */
export async function startDaySession(
  layers: readonly DayLayer[],
  { slug, programTitle, day }: { slug: string; programTitle: string; day: ProgramDay },
): Promise<void> {
  if (layers.length === 0) throw new Error('This day has no sound that can play here.');
  soundEngine.stop();
  const seconds = day.minutes * 60;
  sessionEnds.tag({
    title: `${programTitle} · Day ${day.day}`,
    program: { slug, day: day.day },
    plannedSeconds: seconds,
  });
  try {
    const [first, ...rest] = layers;
    await Promise.all([
      soundEngine.setLayer(first!.id, first!.source, first!.gain, { exclusive: true }),
      ...rest.map((layer) => soundEngine.setLayer(layer.id, layer.source, layer.gain)),
    ]);
    soundEngine.setSleepTimer(seconds, Math.min(DEFAULT_FADE_OUT_SECONDS, seconds / 4));
  } catch (error) {
    soundEngine.stop();
    sessionEnds.tag(null);
    throw error;
  }
}
