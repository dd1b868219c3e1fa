import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  fillPath,
  MAX_DATABASE_ID,
  PLAYLIST_BODY_BYTES,
  PLAYLIST_MAX,
  SUBLIMINAL_NAME_MAX,
} from '@shared/contract';
import { OWN_MESSAGE_TEXT_MAX } from '@shared/contract/portal-plain';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { ownTestKit } from './test-kit';

// The most a playlist may hold, written in characters of four bytes, fits its call's body
// (docs/decisions/067-a-json-body-holds-what-its-fields-allow.md), where the app-wide 1 MiB refused it.

let t: TestApp;
let ada: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  ada = await signedInUser(t.ctx);
  await ownTestKit(() => t).setPlan(ada, 'intermediate');
});
afterAll(() => t.close());

/** Four bytes in UTF-8 (two UTF-16 units), one character. */
const WAVE = '🌊';
const settings = { flashSpeed: 100, displayInterval: 2000, messageColor: '#00DC82', fontSize: 20 };
/** The longest playlist: 1,000 items, each text at its 600 characters, its source and id at their longest. */
const playlist = Array.from({ length: PLAYLIST_MAX }, () => ({
  message_text: WAVE.repeat(OWN_MESSAGE_TEXT_MAX * 3),
  source: 'library',
  message_id: String(MAX_DATABASE_ID),
}));
const player = { playlist, settings };
const subliminal = { name: WAVE.repeat(SUBLIMINAL_NAME_MAX), playlist, settings };

const send = (method: 'PUT' | 'POST', url: string, payload: string) =>
  t.app.inject({ method, url, payload, headers: { ...ada.headers, 'content-type': 'application/json' } });
/** The body as JSON, padded with spaces after it to `bytes` (still the same JSON). */
const padded = (body: object, bytes: number) => {
  const json = JSON.stringify(body);
  return json + ' '.repeat(bytes - Buffer.byteLength(json));
};

describe('a call carrying a playlist', () => {
  it('takes the longest playlist in four-byte characters, over 2 MB', async () => {
    expect(Buffer.byteLength(JSON.stringify(player))).toBeGreaterThan(2 * 1024 * 1024);
    const saved = await send('PUT', API.player, JSON.stringify(player));
    expect(saved.statusCode, saved.body.slice(0, 200)).toBe(200);
    const read = (await t.app.inject({ method: 'GET', url: API.player, headers: ada.headers })).json();
    expect(read.playlist).toHaveLength(PLAYLIST_MAX);
    expect(read.playlist[PLAYLIST_MAX - 1]).toEqual({ ...playlist[0], message_id: MAX_DATABASE_ID });

    const created = await send('POST', API.subliminals, JSON.stringify(subliminal));
    expect(created.statusCode, created.body.slice(0, 200)).toBe(201);
    expect(created.json()).toMatchObject({ name: subliminal.name, playlist: read.playlist });
  });

  it('takes a body up to its limit, and refuses one a byte over it', async () => {
    const first = await send(
      'POST',
      API.subliminals,
      JSON.stringify({ ...subliminal, playlist: playlist.slice(0, 1) }),
    );
    for (const [method, url, body] of [
      ['PUT', API.player, player],
      ['POST', API.subliminals, subliminal],
      ['PUT', fillPath(API.subliminal, { id: first.json().id }), subliminal],
    ] as const) {
      const fits = await send(method, url, padded(body, PLAYLIST_BODY_BYTES));
      expect(fits.statusCode, `${method} ${url}`).toBeLessThan(300);
      const over = await send(method, url, padded(body, PLAYLIST_BODY_BYTES + 1));
      expect([over.statusCode, over.json()], `${method} ${url}`).toEqual([
        413,
        { detail: 'Request body is too large.' },
      ]);
    }
  });
});
