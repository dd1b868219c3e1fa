import { existsSync, readdirSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBytes } from '@shared/bytes';
import { ADMIN_API, API, OWN_MUSIC } from '@shared/contract';
import { fakeMp3, toneWav } from '../admin/test/fake-audio';
import { ownTracks, uploadSlots } from '../db/schema';
import { ONE_TRACK_LEFT_TEXT } from '../own/music';
import { uploadBodySize } from './upload';
import { ownTestKit } from '../own/test-kit';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { multipartBody } from '../test/multipart';
import { createTestApp, type TestApp } from '../test/test-app';
import { UPLOADS_AT_ONCE_TEXT, withUploadSlot } from './upload-slots';

// A person's uploads under way at once, sent as real concurrent requests on their own connections
// (docs/decisions/074-a-persons-uploads-at-once-are-few.md): each refused one is answered before its body,
// stages nothing and keeps nothing, and a slot is free again however its request ends.

let t: TestApp;
let port: number;
const listening = async (env: Record<string, string> = {}) => {
  t = await createTestApp(env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
};

const { setPlan } = ownTestKit(() => t);
const incoming = () => {
  const dir = path.join(t.dataDir, 'media', '.incoming');
  return existsSync(dir) ? readdirSync(dir) : [];
};
const slotsOf = async (user: SignedInUser) =>
  t.database.db.select().from(uploadSlots).where(eq(uploadSlots.userId, user.id));

interface Sent {
  /** The status line's code and the JSON body, once the server has answered (and closed, or not). */
  answer: Promise<{ status: number; body: unknown }>;
  /** Sends the rest of the body. */
  finish(): void;
  socket: Socket;
}

/**
 * Sends a request's head and the first `sendFirst` bytes of its body on a connection of its own, the rest only when
 * `finish()` is called: an upload under way for as long as the test wants.
 */
function send(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  sendFirst = Math.floor(body.length / 2),
): Sent {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  let text = '';
  const answer = new Promise<{ status: number; body: unknown }>((resolve) => {
    const settle = () => {
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return false;
      const head = text.slice(0, end);
      const length = Number(/^content-length: (\d+)$/im.exec(head)?.[1] ?? 0);
      const rest = text.slice(end + 4);
      if (Buffer.byteLength(rest) < length) return false;
      resolve({ status: Number(head.slice(9, 12)), body: length ? JSON.parse(rest) : undefined });
      return true;
    };
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      settle();
    });
    socket.on('close', () => {
      if (!settle()) resolve({ status: 0, body: text });
    });
  });
  const head = Object.entries({ host: 'innerwave.test', ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`${method} ${url} HTTP/1.1\r\n${head}\r\n`);
  socket.write(body.subarray(0, sendFirst));
  return { answer, finish: () => socket.write(body.subarray(sendFirst)), socket };
}

/** A chunked body of `payload`, the chunk's size line and the last chunk around it. */
const chunkedBody = (payload: Buffer) =>
  Buffer.concat([Buffer.from(`${payload.length.toString(16)}\r\n`), payload, Buffer.from('\r\n0\r\n\r\n')]);

/** The answer if it comes within a few seconds with the rest of the body unsent (a refusal before it), else 'none'. */
const answeredUnread = (sent: Sent) =>
  Promise.race([sent.answer, sleep(5000).then(() => 'none' as const)]).finally(() => sent.socket.destroy());

/** Waits until `n` uploads stream to disk (each has a staged file): they got past every check before the body. */
async function streaming(n: number) {
  for (let waited = 0; incoming().length !== n; waited += 20) {
    if (waited > 10_000) throw new Error(`${incoming().length} uploads streaming, not ${n}`);
    await sleep(20);
  }
}

const music = (user: SignedInUser, content: Buffer, name = 'rain.mp3') => {
  const form = multipartBody({ audio_file: { filename: name, content } });
  return {
    headers: { ...form.headers, authorization: user.headers.authorization, 'content-length': `${form.payload.length}` },
    payload: form.payload,
  };
};
const sendMusic = (user: SignedInUser, content: Buffer, name?: string) => {
  const { headers, payload } = music(user, content, name);
  return send('POST', API.myMusic, headers, payload);
};

/** Waits until the server holds `n` slots of the person's (their uploads got past the checks before the body). */
async function slotsHeld(user: SignedInUser, n: number) {
  for (let waited = 0; (await slotsOf(user)).length !== n; waited += 20) {
    if (waited > 10_000) throw new Error(`${(await slotsOf(user)).length} slots held, not ${n}`);
    await sleep(20);
  }
}

const proUser = async () => {
  const user = await signedInUser(t.ctx);
  await setPlan(user, 'pro');
  return user;
};

/** The routes, as "METHOD path", whose onSend hooks include the one named `hook` (read from Fastify's route tree). */
function routesWithOnSend(hook: string) {
  const found: string[] = [];
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
    // A node's path is its parent's and its own: each level of the tree is indented four characters more.
    const segments: string[] = [];
    for (const line of t.app.printRoutes({ method, includeHooks: true, commonPrefix: false }).split('\n')) {
      const node = /^(.*?)[├└]── (\S+)/.exec(line);
      if (node) segments.splice(node[1]!.length / 4, Infinity, node[2]!);
      else if (line.includes('(onSend)') && line.includes(`"${hook}()"`)) found.push(`${method} ${segments.join('')}`);
    }
  }
  return found.sort();
}

describe('uploads under way at once', () => {
  beforeAll(() => listening());
  afterAll(() => t.close());

  it('looks for a slot to give back on the upload routes only', () => {
    const giveBack = withUploadSlot(() => Promise.resolve()).onSend.name;
    expect(routesWithOnSend(giveBack)).toEqual(
      [
        `POST ${API.myMusic}`,
        `POST ${API.myVoice}`,
        `PUT ${API.profileUpdate}`,
        `POST ${ADMIN_API.audioItems}`,
        `POST ${ADMIN_API.audioItemFiles}`,
        `POST ${ADMIN_API.applications}`,
      ].sort(),
    );
  });

  it('refuses a third upload before its body while two stream in, and keeps the two', async () => {
    const ada = await proUser();
    const first = sendMusic(ada, fakeMp3(512 * 1024), 'one.mp3');
    const second = sendMusic(ada, fakeMp3(600 * 1024), 'two.mp3');
    await streaming(2);
    const third = sendMusic(ada, fakeMp3(700 * 1024), 'three.mp3');
    expect(await answeredUnread(third)).toEqual({ status: 409, body: { detail: UPLOADS_AT_ONCE_TEXT } });
    first.finish();
    second.finish();
    expect((await first.answer).status).toBe(201);
    expect((await second.answer).status).toBe(201);
    // Each slot was given back before its answer: the next upload goes at once.
    const fourth = sendMusic(ada, fakeMp3(700 * 1024), 'four.mp3');
    fourth.finish();
    expect((await fourth.answer).status).toBe(201);
    expect(await slotsOf(ada)).toEqual([]);
    expect(incoming()).toEqual([]);
  });

  it('counts one’s uploads on every route together: voice, music, then a picture, but not names alone', async () => {
    const bo = await proUser();
    const voice = multipartBody({ text: 'I am calm.', audio_file: { filename: 'take.wav', content: toneWav(8000) } });
    const take = send(
      'POST',
      API.myVoice,
      { ...voice.headers, authorization: bo.headers.authorization, 'content-length': `${voice.payload.length}` },
      voice.payload,
    );
    const track = sendMusic(bo, fakeMp3(300 * 1024));
    await streaming(2);
    const profile = (form: ReturnType<typeof multipartBody>) =>
      send(
        'PUT',
        API.profileUpdate,
        { ...form.headers, authorization: bo.headers.authorization, 'content-length': `${form.payload.length}` },
        form.payload,
        0,
      );
    const picture = multipartBody({
      first_name: 'Bo',
      last_name: 'Calm',
      profile_image: { filename: 'bo.png', content: Buffer.alloc(200 * 1024, 1) },
    });
    expect(await answeredUnread(profile(picture))).toEqual({ status: 409, body: { detail: UPLOADS_AT_ONCE_TEXT } });
    // Names alone, in a body no larger than the profile's fields could make, are no upload: saved meanwhile.
    const names = profile(multipartBody({ first_name: 'Bo', last_name: 'Calm' }));
    names.finish();
    expect((await names.answer).status).toBe(200);
    // Sent without a length, they could be followed by a picture.
    const unmeasured = multipartBody({ first_name: 'Bo', last_name: 'Calm' });
    const chunked = send(
      'PUT',
      API.profileUpdate,
      { ...unmeasured.headers, authorization: bo.headers.authorization, 'transfer-encoding': 'chunked' },
      chunkedBody(unmeasured.payload),
      0,
    );
    expect(await answeredUnread(chunked)).toEqual({ status: 409, body: { detail: UPLOADS_AT_ONCE_TEXT } });
    await slotsHeld(bo, 2);
    take.finish();
    track.finish();
    expect((await take.answer).status).toBe(201);
    expect((await track.answer).status).toBe(201);
    expect(await slotsOf(bo)).toEqual([]);
    expect(incoming()).toEqual([]);
  });

  it('holds staff to it too', async () => {
    const staff = await signedInUser(t.ctx, { isStaff: true });
    const installer = (version: string) => {
      const form = multipartBody({
        application_version: version,
        description: 'Desktop',
        application_file: { filename: `innerwave-${version}.zip`, content: Buffer.alloc(256 * 1024, 7) },
      });
      return send(
        'POST',
        ADMIN_API.applications,
        {
          ...form.headers,
          authorization: staff.headers.authorization,
          'content-length': `${form.payload.length}`,
        },
        form.payload,
      );
    };
    const one = installer('1.0.0');
    const two = installer('1.0.1');
    await streaming(2);
    expect(await answeredUnread(installer('1.0.2'))).toEqual({ status: 409, body: { detail: UPLOADS_AT_ONCE_TEXT } });
    one.finish();
    two.finish();
    expect((await one.answer).status).toBe(201);
    expect((await two.answer).status).toBe(201);
  });

  it('lets a music with room for one more track have one upload of it under way', async () => {
    const cy = await proUser();
    await t.database.db.insert(ownTracks).values(
      Array.from({ length: OWN_MUSIC.maxTracks - 1 }, (_, i) => ({
        userId: cy.id,
        name: `Track ${i}`,
        audioFile: `own-music/${cy.id}/${i}.mp3`,
        bytes: 1024,
      })),
    );
    const first = sendMusic(cy, fakeMp3(400 * 1024), 'last.mp3');
    await streaming(1);
    const second = sendMusic(cy, fakeMp3(500 * 1024), 'another.mp3');
    expect(await answeredUnread(second)).toEqual({ status: 409, body: { detail: ONE_TRACK_LEFT_TEXT } });
    first.finish();
    expect((await first.answer).status).toBe(201);
    expect(await slotsOf(cy)).toEqual([]);
    expect(incoming()).toEqual([]);
  });
});

describe('a slot given back however its request ends', () => {
  // A body must arrive within 2 s, then keep coming at 1 MB/s: a stalled one is cut off soon.
  beforeAll(() => listening({ REQUEST_TIMEOUT_SECONDS: '2', MIN_UPLOAD_BYTES_PER_SECOND: String(1024 * 1024) }));
  afterAll(() => t.close());

  it('gives a slot back when its client goes away mid-body, and when its body stalls', async () => {
    const di = await proUser();
    const gone = sendMusic(di, fakeMp3(512 * 1024), 'gone.mp3');
    const stalled = sendMusic(di, fakeMp3(512 * 1024), 'stalled.mp3');
    await slotsHeld(di, 2);
    gone.socket.destroy();
    await slotsHeld(di, 1);
    // The stalled body is cut off after the request timeout, its slot with it.
    const cut = await stalled.answer;
    expect(cut.status).toBe(408);
    await slotsHeld(di, 0);
    const next = sendMusic(di, fakeMp3(256 * 1024), 'next.mp3');
    next.finish();
    expect((await next.answer).status).toBe(201);
    for (let waited = 0; incoming().length > 0 && waited < 5000; waited += 50) await sleep(50);
    expect(incoming()).toEqual([]);
    const tracks = await t.database.db.select().from(ownTracks).where(eq(ownTracks.userId, di.id));
    expect(tracks.map((track) => track.name)).toEqual(['next']);
  });
});

describe('a body’s declared length against the bytes left', () => {
  beforeAll(() => listening());
  afterAll(() => t.close());

  /** A person whose music has `left` bytes of its quota free. */
  const withBytesLeft = async (left: number) => {
    const user = await proUser();
    await t.database.db.insert(ownTracks).values({
      userId: user.id,
      name: 'Big',
      audioFile: `own-music/${user.id}/big.mp3`,
      bytes: OWN_MUSIC.maxBytes - left,
    });
    return user;
  };

  it('refuses an upload declared larger than the room left, before its body, and keeps what the music has', async () => {
    const ed = await withBytesLeft(1024 * 1024);
    const { headers, payload } = music(ed, fakeMp3(4 * 1024 * 1024));
    const refused = send('POST', API.myMusic, headers, payload, 0);
    expect(await answeredUnread(refused)).toEqual({
      status: 403,
      body: {
        detail: `This upload is 4\u00a0MB, and your music has 1\u00a0MB of 500\u00a0MB left. Delete a track to make room.`,
      },
    });
    expect(await slotsOf(ed)).toEqual([]);
    const tracks = await t.database.db.select().from(ownTracks).where(eq(ownTracks.userId, ed.id));
    expect(tracks.map((track) => track.name)).toEqual(['Big']);
  });

  /** Sends an own-music upload without a length (chunked), its first `sendFirst` bytes only until `finish()`. */
  const sendChunked = (user: SignedInUser, content: Buffer, name: string, sendFirst: number) => {
    const { headers, payload } = music(user, content, name);
    const { 'content-length': _length, ...unmeasured } = headers;
    return send(
      'POST',
      API.myMusic,
      { ...unmeasured, 'transfer-encoding': 'chunked' },
      chunkedBody(payload),
      sendFirst,
    );
  };
  const trackNames = async (user: SignedInUser) =>
    (await t.database.db.select().from(ownTracks).where(eq(ownTracks.userId, user.id)))
      .map((track) => track.name)
      .sort();
  const MB = 1024 * 1024;

  it('keeps the bytes an upload declares from the room a second one started meanwhile is told, which is refused unread', async () => {
    const gi = await withBytesLeft(10 * MB);
    const { headers, payload } = music(gi, fakeMp3(8 * MB), 'first.mp3');
    const first = send('POST', API.myMusic, headers, payload);
    await slotsHeld(gi, 1);
    expect((await slotsOf(gi)).map((slot) => slot.bytes)).toEqual([payload.length]);
    // 2 MB left beside it: a body of 4 MB cannot bring a file that fits (its fields at their most are 1.3 MB).
    const second = music(gi, fakeMp3(4 * MB), 'second.mp3');
    expect(await answeredUnread(send('POST', API.myMusic, second.headers, second.payload, 0))).toEqual({
      status: 409,
      body: {
        detail: `This upload is ${formatBytes(second.payload.length)}, and of the 10\u00a0MB your music has left, ${formatBytes(payload.length)} is kept for an upload already on its way. Try this one again once it has finished.`,
      },
    });
    // One that fits in what the first leaves goes beside it.
    const small = sendMusic(gi, fakeMp3(512 * 1024), 'small.mp3');
    small.finish();
    expect((await small.answer).status).toBe(201);
    first.finish();
    expect((await first.answer).status).toBe(201);
    expect(await slotsOf(gi)).toEqual([]);
    expect(incoming()).toEqual([]);
    expect(await trackNames(gi)).toEqual(['Big', 'first', 'small']);
  });

  it('keeps all the room a file may take for an upload sent without a length, so one started meanwhile is refused unread', async () => {
    const ha = await withBytesLeft(3 * MB);
    const chunked = sendChunked(ha, fakeMp3(MB), 'chunked.mp3', 512 * 1024);
    await slotsHeld(ha, 1);
    expect((await slotsOf(ha)).map((slot) => slot.bytes)).toEqual([3 * MB]);
    const small = music(ha, fakeMp3(100 * 1024), 'small.mp3');
    expect(await answeredUnread(send('POST', API.myMusic, small.headers, small.payload, 0))).toEqual({
      status: 409,
      body: {
        detail: `This upload is ${formatBytes(small.payload.length)}, and of the 3\u00a0MB your music has left, 3\u00a0MB is kept for an upload already on its way. Try this one again once it has finished.`,
      },
    });
    chunked.finish();
    expect((await chunked.answer).status).toBe(201);
    expect(await slotsOf(ha)).toEqual([]);
    expect(incoming()).toEqual([]);
    expect(await trackNames(ha)).toEqual(['Big', 'chunked']);
  });

  it('stages an upload sent without a length beside a declared one no further than what the declared one leaves', async () => {
    const io = await withBytesLeft(3 * MB);
    const { headers, payload } = music(io, fakeMp3(2 * MB), 'declared.mp3');
    const declared = send('POST', API.myMusic, headers, payload);
    await slotsHeld(io, 1);
    // 1 MB is left beside the declared one: the chunked file of 2 MB is refused as it passes it, the rest unsent.
    const chunked = sendChunked(io, fakeMp3(2 * MB), 'chunked.mp3', 1.5 * MB);
    expect(await answeredUnread(chunked)).toEqual({
      status: 409,
      body: {
        detail: `This file needs more than ${formatBytes(3 * MB - payload.length)}: of the 3\u00a0MB your music has left, ${formatBytes(payload.length)} is kept for an upload already on its way. Try this one again once it has finished.`,
      },
    });
    await slotsHeld(io, 1);
    declared.finish();
    expect((await declared.answer).status).toBe(201);
    expect(await slotsOf(io)).toEqual([]);
    expect(incoming()).toEqual([]);
    expect(await trackNames(io)).toEqual(['Big', 'declared']);
  });

  it('stages a declared upload beside another no further than what the other leaves: its fields’ share is no room for its file', async () => {
    const ka = await withBytesLeft(10 * MB);
    const { headers, payload } = music(ka, fakeMp3(8 * MB), 'first.mp3');
    const first = send('POST', API.myMusic, headers, payload);
    await slotsHeld(ka, 1);
    const free = 10 * MB - payload.length;
    // A body of 3 MB is let in beside it (a file of 2 MB and fields at their most could be as long), but its file is
    // the 3 MB: refused as it passes the 2 MB left, the rest unsent, where it took the room kept for the first.
    const second = music(ka, fakeMp3(3 * MB), 'second.mp3');
    expect(second.payload.length).toBeLessThanOrEqual(uploadBodySize(free));
    expect(await answeredUnread(send('POST', API.myMusic, second.headers, second.payload, free + 512 * 1024))).toEqual({
      status: 409,
      body: {
        detail: `This file needs more than ${formatBytes(free)}: of the 10\u00a0MB your music has left, ${formatBytes(payload.length)} is kept for an upload already on its way. Try this one again once it has finished.`,
      },
    });
    await slotsHeld(ka, 1);
    first.finish();
    expect((await first.answer).status).toBe(201);
    expect(await slotsOf(ka)).toEqual([]);
    expect(incoming()).toEqual([]);
    expect(await trackNames(ka)).toEqual(['Big', 'first']);
  });

  it('answers a length no body could have, or none at all, with a 4xx, and keeps nothing', async () => {
    const jo = await proUser();
    const { headers, payload } = music(jo, fakeMp3(64 * 1024));
    for (const length of ['999999999999999', '99999999999999999999999', '-1', '1e6', '']) {
      const sent = send('POST', API.myMusic, { ...headers, 'content-length': length }, payload, 0);
      const { status } = (await answeredUnread(sent)) as { status: number };
      expect([length, status >= 400 && status < 500]).toEqual([length, true]);
    }
    // A length and chunks together: refused by the server's HTTP parser, before any route.
    const both = send('POST', API.myMusic, { ...headers, 'transfer-encoding': 'chunked' }, chunkedBody(payload), 0);
    const { status } = (await answeredUnread(both)) as { status: number };
    expect(status).toBe(400);
    await slotsHeld(jo, 0);
    expect(incoming()).toEqual([]);
    expect(await trackNames(jo)).toEqual([]);
  });

  it('still takes a file that fits, and refuses one whose length lied low or that came chunked, keeping nothing of it', async () => {
    const fi = await withBytesLeft(1024 * 1024);
    const fits = sendMusic(fi, fakeMp3(512 * 1024), 'fits.mp3');
    fits.finish();
    expect((await fits.answer).status).toBe(201);
    // A Content-Length smaller than the file: the body read is cut short, a broken form. Only the declared bytes are
    // sent: the rest would be a broken next request on the connection, which the HTTP parser answers 400 (closing
    // it) while the route may not yet have taken its slot, so the next upload could meet that slot still held.
    const big = music(fi, fakeMp3(2 * 1024 * 1024), 'big.mp3');
    const lied = send(
      'POST',
      API.myMusic,
      { ...big.headers, 'content-length': '100000' },
      big.payload.subarray(0, 100_000),
    );
    lied.finish();
    expect((await lied.answer).status).toBe(400);
    lied.socket.destroy();
    // Given back before the answer went out.
    expect(await slotsOf(fi)).toEqual([]);
    // No length at all (chunked): read, and refused once its file passes the bytes left (512 KB now), the rest of
    // it never sent.
    const { 'content-length': _length, ...unmeasured } = big.headers;
    const chunked = send(
      'POST',
      API.myMusic,
      { ...unmeasured, 'transfer-encoding': 'chunked' },
      Buffer.concat([Buffer.from(`${big.payload.length.toString(16)}\r\n`), big.payload, Buffer.from('\r\n0\r\n\r\n')]),
      1024 * 1024,
    );
    expect(await answeredUnread(chunked)).toEqual({
      status: 403,
      body: {
        detail:
          'This file needs more than 512\u00a0KB, and your music has 512\u00a0KB of 500\u00a0MB left. Delete a track to make room.',
      },
    });
    expect(await slotsOf(fi)).toEqual([]);
    expect(incoming()).toEqual([]);
    const tracks = await t.database.db.select().from(ownTracks).where(eq(ownTracks.userId, fi.id));
    expect(tracks.map((track) => track.name).sort()).toEqual(['Big', 'fits']);
  });
});
