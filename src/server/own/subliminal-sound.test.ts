import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ADMIN_API, API, fillPath, MIX_LAYERS_MAX } from '@shared/contract';
import { audioItems, ownTracks, savedSubliminals } from '../db/schema';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { ownTestKit } from './test-kit';

// A saved subliminal's sound: validation, the plan gate on save, ownership of own tracks, shares,
// the export, and rows saved before sounds were (docs/product/api.md#saved-and-shared).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { call, setPlan } = ownTestKit(() => t);
const subliminalPath = (id: number) => fillPath(API.subliminal, { id });

const settings = { flashSpeed: 120, displayInterval: 2500, messageColor: '#FDBA74', fontSize: 30, theme: 'dawn' };
const playlist = [{ message_text: 'I am calm.', source: 'library', message_id: 3 }];
/** A library track, as `libraryTrack` puts it in the library before the tests. */
const track = { kind: 'track', audio_kind: 'selfeggio', track_id: 0, name: '432 Hz calm', gain_db: -6 };
const noise = { kind: 'noise', colour: 'pink', gain_db: -18.5 };
const voice = { kind: 'voice', voice: 'en-gb', rate: 145, pause_s: 2, level_db: -20, gain_db: -6 };
const binaural = { kind: 'binaural', left_hz: 200, right_hz: 205, gain_db: -12 };
const isochronic = { kind: 'isochronic', carrier_hz: 200, pulse_hz: 10, gain_db: -24 };
const mix = { volume: 0.7, layers: [track, noise] };
const body = (sound: unknown) => ({ name: 'Rain and words', playlist, settings, sound });

async function userOn(plan: 'basic' | 'intermediate' | 'pro') {
  const user = await signedInUser(t.ctx);
  if (plan !== 'basic') await setPlan(user, plan);
  return user;
}
async function ownTrack(user: SignedInUser, name: string) {
  const [row] = await t.ctx.database.db
    .insert(ownTracks)
    .values({ userId: user.id, name, audioFile: `own-music/${user.id}/${encodeURIComponent(name)}.mp3`, bytes: 10 })
    .returning();
  return row!.id;
}

/** Staff remove a library track as the admin's Delete does. */
async function removeFromLibrary(id: number) {
  const staff = await signedInUser(t.ctx, { isStaff: true });
  const removed = await call(staff, 'DELETE', fillPath(ADMIN_API.audioItem, { kind: 'selfeggio', id }));
  expect(removed.statusCode).toBe(204);
}

async function libraryTrack(name: string) {
  const [row] = await t.ctx.database.db
    .insert(audioItems)
    .values({ kind: 'selfeggio', name, audioFile: `selfeggio/${name}.mp3` })
    .returning();
  return row!.id;
}

describe('the sound of a saved subliminal', () => {
  beforeAll(async () => {
    track.track_id = await libraryTrack(track.name);
  });

  it('is kept with its layers, levels and volume, returned on read, list, share and in the export', async () => {
    const ada = await userOn('intermediate');
    const created = await call(ada, 'POST', API.subliminals, body(mix));
    expect(created.statusCode).toBe(201);
    expect(created.json().sound).toEqual(mix);
    const { id } = created.json();
    expect((await call(ada, 'GET', subliminalPath(id))).json().sound).toEqual(mix);
    expect((await call(ada, 'GET', API.subliminals)).json()[0]).toMatchObject({ id, layer_count: 2 });

    // A replace of the messages and the sound together: the list's counts follow both.
    const three = [...playlist, ...playlist, ...playlist];
    const replaced = await call(ada, 'PUT', subliminalPath(id), {
      ...body({ volume: 0.5, layers: [isochronic] }),
      playlist: three,
    });
    expect(replaced.statusCode).toBe(200);
    expect((await call(ada, 'GET', subliminalPath(id))).json().sound).toEqual({ volume: 0.5, layers: [isochronic] });
    expect((await call(ada, 'GET', API.subliminals)).json()[0]).toMatchObject({ id, message_count: 3, layer_count: 1 });
    // Saving without a sound clears it.
    const { sound: _none, ...noSound } = body(null);
    expect((await call(ada, 'PUT', subliminalPath(id), noSound)).json().sound).toBeNull();
    expect((await call(ada, 'GET', API.subliminals)).json()[0]).toMatchObject({ id, message_count: 1, layer_count: 0 });
    await call(ada, 'PUT', subliminalPath(id), body(mix));

    const link = (await call(ada, 'POST', fillPath(API.subliminalShare, { id }))).json();
    const shared = (await call(undefined, 'GET', fillPath(API.shared, { token: link.token }))).json();
    expect(shared).toMatchObject({ sound: mix, private_tracks: [] });

    const exported = (await call(ada, 'GET', API.userExport)).json();
    expect(exported.saved_subliminals[0].sound).toEqual(mix);
  });

  it('keeps binaural beats at any frequency the generator plays, down to 0.1 Hz, and refuses what it does not', async () => {
    const ada = await userOn('intermediate');
    // A 4 Hz beat between 10 and 14 Hz tones: typed into the generator's free fields, which play 0.1–1000 Hz.
    const low = { volume: 0.6, layers: [{ ...binaural, left_hz: 10, right_hz: 14 }] };
    const created = await call(ada, 'POST', API.subliminals, body(low));
    expect(created.statusCode, created.body).toBe(201);
    const edges = { volume: 0.6, layers: [{ ...binaural, left_hz: 0.1, right_hz: 1000 }] };
    const updated = await call(ada, 'PUT', subliminalPath(created.json().id), body(edges));
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await call(ada, 'GET', subliminalPath(created.json().id))).json().sound).toEqual(edges);
    for (const left_hz of [0, 0.09, 1000.1, -5]) {
      const refused = await call(
        ada,
        'POST',
        API.subliminals,
        body({ volume: 0.6, layers: [{ ...binaural, left_hz }] }),
      );
      expect(refused.statusCode, String(left_hz)).toBe(400);
    }
  });

  it('refuses unknown kinds, out-of-range levels, too many or doubled layers and stray fields, with field errors', async () => {
    const ada = await userOn('pro');
    const { id } = (await call(ada, 'POST', API.subliminals, body(mix))).json();
    for (const sound of [
      { volume: 0.5, layers: [{ kind: 'rain', gain_db: -6 }] },
      { volume: 0.5, layers: [{ ...noise, gain_db: 3 }] },
      { volume: 0.5, layers: [{ ...noise, gain_db: -61 }] },
      { volume: 0.5, layers: [{ ...voice, level_db: -40 }] },
      { volume: 0.5, layers: [{ ...voice, voice: 'klingon; rm' }] },
      { volume: 0.5, layers: [{ ...binaural, left_hz: 5000 }] },
      { volume: 0.5, layers: [{ ...noise, colour: 'purple' }] },
      { volume: 0.5, layers: [{ ...track, track_id: 0 }] },
      { volume: 0.5, layers: [{ ...noise, extra: 1 }] },
      { volume: 1.5, layers: [noise] },
      { volume: 0.5, layers: [] },
      { volume: 0.5, layers: [noise, { ...noise, colour: 'white' }] },
      { volume: 0.5, layers: [track, { kind: 'own_track', track_id: 1, name: 'Mine', gain_db: 0 }] },
      { volume: 0.5, layers: [track, binaural, isochronic, noise, voice, noise] },
      { layers: [noise] },
      'loud',
    ]) {
      for (const [method, url] of [
        ['POST', API.subliminals],
        ['PUT', subliminalPath(id)],
      ] as const) {
        const refused = await call(ada, method, url, body(sound));
        expect(refused.statusCode, `${method} ${JSON.stringify(sound)}`).toBe(400);
        expect(Object.keys(refused.json())).toEqual(['sound']);
      }
    }
    expect(MIX_LAYERS_MAX).toBe(5);
    expect((await call(ada, 'GET', subliminalPath(id))).json().sound).toEqual(mix);
    expect((await call(ada, 'GET', API.subliminals)).json()).toHaveLength(1);
  });

  it("refuses a layer the saver's plan lacks, naming the plan; Pro saves voice and own music", async () => {
    const ian = await userOn('intermediate');
    const mine = await ownTrack(ian, 'Rain at night');
    for (const [layers, detail] of [
      [[noise, voice], 'Spoken affirmations is part of the Pro plan.'],
      [
        [{ kind: 'own_track', track_id: mine, name: 'Rain at night', gain_db: -6 }],
        'Your own music is part of the Pro plan.',
      ],
    ] as const) {
      const refused = await call(ian, 'POST', API.subliminals, body({ volume: 0.8, layers }));
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail, code: 'plan_required', required_plan: 'pro' });
    }
    expect((await call(ian, 'GET', API.subliminals)).json()).toEqual([]);

    const pia = await userOn('pro');
    const hers = await ownTrack(pia, 'Sea');
    const own = { kind: 'own_track', track_id: hers, name: 'Sea', gain_db: -3 };
    const saved = await call(pia, 'POST', API.subliminals, body({ volume: 0.8, layers: [own, voice] }));
    expect(saved.statusCode).toBe(201);
    expect(saved.json().sound.layers).toEqual([own, voice]);
  });

  it("refuses another person's own track (400), and keeps the sharer's own music out of a share", async () => {
    const pia = await userOn('pro');
    const other = await userOn('pro');
    const theirs = await ownTrack(other, 'Not yours');
    const refused = await call(
      pia,
      'POST',
      API.subliminals,
      body({ volume: 0.8, layers: [{ kind: 'own_track', track_id: theirs, name: 'Not yours', gain_db: -3 }] }),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ sound: ['\u2068Not yours\u2069 is not in your music.'] });

    const hers = await ownTrack(pia, 'Sea');
    const own = { kind: 'own_track', track_id: hers, name: 'Sea', gain_db: -3 };
    const { id } = (
      await call(pia, 'POST', API.subliminals, body({ volume: 0.8, layers: [own, noise, voice] }))
    ).json();
    expect((await call(other, 'GET', subliminalPath(id))).statusCode).toBe(404);
    expect((await call(other, 'PUT', subliminalPath(id), body(mix))).statusCode).toBe(404);
    const link = (await call(pia, 'POST', fillPath(API.subliminalShare, { id }))).json();
    const view = await call(undefined, 'GET', fillPath(API.shared, { token: link.token }));
    expect(view.json()).toMatchObject({ sound: { volume: 0.8, layers: [noise, voice] }, private_tracks: ['Sea'] });
    expect(view.body).not.toContain(`"track_id":${hers}`);

    // An Intermediate copier keeps what their plan plays: the noise, not the voice nor her music.
    const ian = await userOn('intermediate');
    const copy = await call(ian, 'POST', fillPath(API.sharedCopy, { token: link.token }));
    expect(copy.statusCode).toBe(201);
    expect(copy.json().subliminal.sound).toEqual({ volume: 0.8, layers: [noise] });
  });

  it('refuses a library track that is not in the library, and saves a track with its name there', async () => {
    const ada = await userOn('intermediate');
    const { id } = (await call(ada, 'POST', API.subliminals, body(mix))).json();
    const missing = { ...track, audio_kind: 'bonus', track_id: 424242, name: 'Nonexistent' };
    // A real id in another library is not that track either.
    const elsewhere = { ...track, audio_kind: 'bonus', name: 'Elsewhere' };
    for (const [layer, detail] of [
      [missing, '\u2068Nonexistent\u2069 is not in the library.'],
      [elsewhere, '\u2068Elsewhere\u2069 is not in the library.'],
    ] as const) {
      for (const [method, url] of [
        ['POST', API.subliminals],
        ['PUT', subliminalPath(id)],
      ] as const) {
        const refused = await call(ada, method, url, body({ volume: 0.7, layers: [layer, noise] }));
        expect(refused.statusCode, `${method} ${layer.name}`).toBe(400);
        expect(refused.json()).toEqual({ sound: [detail] });
      }
    }
    expect((await call(ada, 'GET', API.subliminals)).json()).toHaveLength(1);
    expect((await call(ada, 'GET', subliminalPath(id))).json().sound).toEqual(mix);

    // A made-up name is not kept: the track is saved, and shared, by its name in the library.
    const renamed = { ...track, name: 'Made up' };
    const created = await call(ada, 'POST', API.subliminals, body({ volume: 0.7, layers: [renamed] }));
    expect(created.statusCode).toBe(201);
    expect(created.json().sound.layers).toEqual([track]);
    const replaced = await call(ada, 'PUT', subliminalPath(id), body({ volume: 0.7, layers: [renamed, noise] }));
    expect(replaced.json().sound.layers).toEqual([track, noise]);
    const link = (await call(ada, 'POST', fillPath(API.subliminalShare, { id }))).json();
    const view = (await call(undefined, 'GET', fillPath(API.shared, { token: link.token }))).json();
    expect(view.sound.layers).toEqual([track, noise]);
    expect(JSON.stringify(view)).not.toContain('Made up');

    // An own track is saved by its name in the saver's music too.
    const pia = await userOn('pro');
    const sea = await ownTrack(pia, 'Sea');
    const own = await call(
      pia,
      'POST',
      API.subliminals,
      body({ volume: 0.7, layers: [{ kind: 'own_track', track_id: sea, name: 'Made up', gain_db: -3 }] }),
    );
    expect(own.json().sound.layers).toEqual([{ kind: 'own_track', track_id: sea, name: 'Sea', gain_db: -3 }]);
  });

  it('shares no library track staff removed since: named as gone, and not said to play nor copied', async () => {
    const ada = await userOn('intermediate');
    const gone = { ...track, track_id: await libraryTrack('Removed tone'), name: 'Removed tone' };
    const { id } = (await call(ada, 'POST', API.subliminals, body({ volume: 0.7, layers: [gone, binaural] }))).json();
    const link = (await call(ada, 'POST', fillPath(API.subliminalShare, { id }))).json();
    await removeFromLibrary(gone.track_id);
    const view = (await call(undefined, 'GET', fillPath(API.shared, { token: link.token }))).json();
    expect(view).toMatchObject({
      sound: { volume: 0.7, layers: [binaural] },
      private_tracks: [],
      gone_tracks: ['Removed tone'],
    });
    // The owner's own subliminal still holds it (their player says it is gone when it plays), also
    // when renamed; added anew, it is left out and named.
    expect((await call(ada, 'GET', subliminalPath(id))).json().sound.layers).toEqual([gone, binaural]);
    const renamed = await call(ada, 'PUT', subliminalPath(id), {
      ...body({ volume: 0.7, layers: [gone, binaural] }),
      name: 'Renamed',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ sound: { layers: [gone, binaural] }, gone_tracks: [] });
    const louder = await call(
      ada,
      'PUT',
      subliminalPath(id),
      body({ volume: 0.7, layers: [{ ...gone, gain_db: 0 }, binaural] }),
    );
    expect(louder.statusCode).toBe(200);
    expect(louder.json()).toMatchObject({ sound: { layers: [binaural] }, gone_tracks: ['Removed tone'] });
    const ian = await userOn('intermediate');
    const copy = await call(ian, 'POST', fillPath(API.sharedCopy, { token: link.token }));
    expect(copy.json().subliminal.sound).toEqual({ volume: 0.7, layers: [binaural] });
    // The sharer's own copy leaves it out too (it could not be saved anew).
    const own = await call(ada, 'POST', fillPath(API.sharedCopy, { token: link.token }));
    expect(own.statusCode).toBe(201);
    expect(own.json().subliminal.sound).toEqual({ volume: 0.7, layers: [binaural] });
  });

  it('saves without a library track staff removed while it played, naming it, and still refuses one that never was', async () => {
    const ada = await userOn('intermediate');
    const fading = await libraryTrack('Fading tone');
    await removeFromLibrary(fading);
    // The player still holds it under the name it showed; the answer names it as the library did.
    const playing = { ...track, track_id: fading, name: 'As the player showed it' };
    const created = await call(ada, 'POST', API.subliminals, body({ volume: 0.7, layers: [playing, noise] }));
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ sound: { volume: 0.7, layers: [noise] }, gone_tracks: ['Fading tone'] });
    const { id } = created.json();
    expect((await call(ada, 'GET', subliminalPath(id))).json().sound).toEqual({ volume: 0.7, layers: [noise] });

    const updated = await call(ada, 'PUT', subliminalPath(id), body({ volume: 0.5, layers: [noise, playing] }));
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ sound: { volume: 0.5, layers: [noise] }, gone_tracks: ['Fading tone'] });
    // It alone played: saved without a sound.
    const alone = await call(ada, 'PUT', subliminalPath(id), body({ volume: 0.5, layers: [playing] }));
    expect(alone.json()).toMatchObject({ sound: null, gone_tracks: ['Fading tone'] });
    expect((await call(ada, 'GET', API.subliminals)).json()[0]).toMatchObject({ id, layer_count: 0 });
    // A save with what is in the library names nothing.
    expect((await call(ada, 'PUT', subliminalPath(id), body(mix))).json()).toMatchObject({
      sound: mix,
      gone_tracks: [],
    });

    // Its id in another library, or an id that never was, is still refused, and nothing is saved.
    for (const [layer, name] of [
      [{ ...playing, audio_kind: 'bonus' }, 'As the player showed it'],
      [{ ...playing, track_id: 424242, name: 'Never' }, 'Never'],
    ] as const) {
      const refused = await call(ada, 'PUT', subliminalPath(id), body({ volume: 0.7, layers: [layer, noise] }));
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ sound: [`\u2068${name}\u2069 is not in the library.`] });
    }
    expect((await call(ada, 'GET', subliminalPath(id))).json().sound).toEqual(mix);
  });

  it('saves without an own track the person deleted in another tab, naming it, and still refuses one never theirs', async () => {
    const pia = await userOn('pro');
    const other = await userOn('pro');
    const sea = await ownTrack(pia, 'Sea at night');
    const deleted = await call(pia, 'DELETE', fillPath(API.myMusicTrack, { id: sea }));
    expect(deleted.statusCode).toBe(204);
    // The other tab still plays it under the name it showed; the answer names it as her music did.
    const playing = { kind: 'own_track', track_id: sea, name: 'As the player showed it', gain_db: -6 };
    const created = await call(pia, 'POST', API.subliminals, body({ volume: 0.7, layers: [playing, noise] }));
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ sound: { volume: 0.7, layers: [noise] }, gone_tracks: ['Sea at night'] });
    const { id } = created.json();
    const alone = await call(pia, 'PUT', subliminalPath(id), body({ volume: 0.7, layers: [playing] }));
    expect(alone.statusCode).toBe(200);
    expect(alone.json()).toMatchObject({ sound: null, gone_tracks: ['Sea at night'] });

    // Another person's deleted track, another person's track, and an id that never was are still refused.
    const theirs = await ownTrack(other, 'Theirs');
    const theirsDeleted = await ownTrack(other, 'Theirs, deleted');
    expect((await call(other, 'DELETE', fillPath(API.myMusicTrack, { id: theirsDeleted }))).statusCode).toBe(204);
    for (const track_id of [theirs, theirsDeleted, 424242]) {
      const refused = await call(
        pia,
        'PUT',
        subliminalPath(id),
        body({ volume: 0.7, layers: [{ ...playing, track_id }, noise] }),
      );
      expect(refused.statusCode, String(track_id)).toBe(400);
      expect(refused.json()).toEqual({ sound: ['\u2068As the player showed it\u2069 is not in your music.'] });
    }
    expect((await call(pia, 'GET', subliminalPath(id))).json().sound).toBeNull();
    // Deleting it again is still not found, and its record stays one.
    expect((await call(pia, 'DELETE', fillPath(API.myMusicTrack, { id: sea }))).statusCode).toBe(404);
  });

  it('keeps a saved own track its owner deleted since: the share names it as private, her copy of it leaves it out', async () => {
    const pia = await userOn('pro');
    const sea = await ownTrack(pia, 'Sea');
    const own = { kind: 'own_track', track_id: sea, name: 'Sea', gain_db: -3 };
    const { id } = (await call(pia, 'POST', API.subliminals, body({ volume: 0.8, layers: [own, noise] }))).json();
    const link = (await call(pia, 'POST', fillPath(API.subliminalShare, { id }))).json();
    expect((await call(pia, 'DELETE', fillPath(API.myMusicTrack, { id: sea }))).statusCode).toBe(204);

    // Her subliminal still holds it (opening it says it is no longer in her music), also when renamed.
    expect((await call(pia, 'GET', subliminalPath(id))).json().sound.layers).toEqual([own, noise]);
    expect((await call(pia, 'GET', API.subliminals)).json()[0]).toMatchObject({ id, layer_count: 2 });
    const renamed = await call(pia, 'PUT', subliminalPath(id), {
      ...body({ volume: 0.8, layers: [own, noise] }),
      name: 'Renamed',
    });
    expect(renamed.json()).toMatchObject({ sound: { layers: [own, noise] }, gone_tracks: [] });
    // The share never played it for anyone else: it is named as her own music, as before.
    const view = (await call(undefined, 'GET', fillPath(API.shared, { token: link.token }))).json();
    expect(view).toMatchObject({ sound: { layers: [noise] }, private_tracks: ['Sea'], gone_tracks: [] });
    // Her own copy of the share is saved without it, where it was refused as not in her music.
    const copy = await call(pia, 'POST', fillPath(API.sharedCopy, { token: link.token }));
    expect(copy.statusCode).toBe(201);
    expect(copy.json().subliminal.sound).toEqual({ volume: 0.8, layers: [noise] });
  });

  it('keeps a layer saved before a downgrade when the subliminal is renamed, but refuses adding one', async () => {
    const pia = await userOn('pro');
    const { id } = (await call(pia, 'POST', API.subliminals, body({ volume: 0.6, layers: [noise, voice] }))).json();
    await setPlan(pia, 'intermediate');
    const renamed = await call(pia, 'PUT', subliminalPath(id), {
      ...body({ volume: 0.6, layers: [noise, voice] }),
      name: 'Renamed',
    });
    expect(renamed.statusCode).toBe(200);
    const louder = await call(
      pia,
      'PUT',
      subliminalPath(id),
      body({ volume: 0.6, layers: [noise, { ...voice, level_db: -10 }] }),
    );
    expect(louder.statusCode).toBe(403);
  });

  it('reads rows saved before sounds were, and a stored sound that no longer passes, as none', async () => {
    const ada = await userOn('intermediate');
    const { id } = (await call(ada, 'POST', API.subliminals, { name: 'Old', playlist, settings })).json();
    const { db } = t.ctx.database;
    expect((await db.select().from(savedSubliminals).where(eq(savedSubliminals.id, id)))[0]!.sound).toBeNull();
    const old = await call(ada, 'GET', subliminalPath(id));
    expect(old.statusCode).toBe(200);
    expect(old.json().sound).toBeNull();
    expect((await call(ada, 'GET', API.subliminals)).json()[0]).toMatchObject({ id, layer_count: 0 });

    await db
      .update(savedSubliminals)
      .set({ sound: { volume: 9, layers: 'x' } })
      .where(eq(savedSubliminals.id, id));
    expect((await call(ada, 'GET', subliminalPath(id))).json().sound).toBeNull();
    const link = (await call(ada, 'POST', fillPath(API.subliminalShare, { id }))).json();
    expect((await call(undefined, 'GET', fillPath(API.shared, { token: link.token }))).json()).toMatchObject({
      sound: null,
      private_tracks: [],
      gone_tracks: [],
    });
  });
});
