import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { multipartBody } from '../test/multipart';
import { mediaFilesIn, signedMediaUrl } from '../test/media';
import { fakeMp3, headersOnly, oggVorbisStart } from './test/fake-audio';
import {
  AUDIO_UPDATE_EMPTY_MESSAGE,
  changedMeanwhileMessage,
  CONTROL_CHARACTER_REFUSED,
  DIRECTION_CONTROL_REFUSED,
} from '@shared/contract';

const mediaFiles = (t: TestApp) => mediaFilesIn(t.dataDir);

const fileOf = (t: TestApp, url: string) =>
  path.join(t.dataDir, 'media', new URL(url).pathname.replace(/^\/media\//, ''));

describe('admin uploads API', () => {
  let t: TestApp;
  let staff: SignedInUser;
  let png: Buffer;
  beforeAll(async () => {
    t = await createTestApp({ MAX_APPLICATION_BYTES: String(64 * 1024) });
    staff = await signedInUser(t.ctx, { isStaff: true });
    png = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
  });
  afterAll(() => t.close());

  const upload = (url: string, parts: Parameters<typeof multipartBody>[0], method: 'POST' = 'POST') => {
    const body = multipartBody(parts);
    return t.app.inject({ method, url, headers: { ...staff.headers, ...body.headers }, payload: body.payload });
  };

  it('uploads an audio item with a cover re-encoded to a 512 px WebP, edits it, and deletes its files', async () => {
    const audio = fakeMp3();
    const res = await upload('/api/admin/audio/selfeggio/', {
      name: '528 Hz',
      description: 'A bright tone.',
      audio_file: { filename: 'tone.bin', content: audio },
      cover_image: { filename: 'cover.png', content: png, contentType: 'image/png' },
    });
    expect(res.statusCode).toBe(201);
    const item = res.json();
    expect(item).toMatchObject({ kind: 'selfeggio', name: '528 Hz', description: 'A bright tone.', position: 0 });
    const sha = createHash('sha256').update(audio).digest('hex');
    expect(item.audio_file).toEqual(signedMediaUrl(`audio/selfeggio/${sha}.mp3`));
    expect(readFileSync(fileOf(t, item.audio_file)).equals(audio)).toBe(true);
    const cover = await sharp(fileOf(t, item.cover_image)).metadata();
    expect([cover.format, cover.width, cover.height]).toEqual(['webp', 512, 512]);

    const listed = await t.app.inject({ method: 'GET', url: '/api/admin/audio/selfeggio/', headers: staff.headers });
    expect(listed.json()).toEqual([item]);
    const other = await t.app.inject({ method: 'GET', url: '/api/admin/audio/bonus/', headers: staff.headers });
    expect(other.json()).toEqual([]);

    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/audio/selfeggio/${item.id}/`,
      headers: staff.headers,
      payload: { description: 'Uplifting.' },
    });
    expect(edited.json()).toMatchObject({ name: '528 Hz', description: 'Uplifting.' });
    const blankName = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/audio/selfeggio/${item.id}/`,
      headers: staff.headers,
      payload: { name: '' },
    });
    expect(blankName.statusCode).toBe(400);
    const wrongKind = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/audio/bonus/${item.id}/`,
      headers: staff.headers,
      payload: { name: 'x' },
    });
    expect(wrongKind.statusCode).toBe(404);

    const replacement = Buffer.concat([oggVorbisStart(), randomBytes(512)]);
    const replaced = await upload(`/api/admin/audio/selfeggio/${item.id}/files/`, {
      audio_file: { filename: 'new.ogg', content: replacement },
    });
    expect(replaced.statusCode).toBe(200);
    expect(new URL(replaced.json().audio_file).pathname).toMatch(/\.ogg$/);
    expect(existsSync(fileOf(t, item.audio_file))).toBe(false);
    expect(replaced.json().cover_image).toBe(item.cover_image);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/audio/selfeggio/${item.id}/`,
      headers: staff.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect(mediaFiles(t)).toEqual([]);
  });

  it('refuses a file that is not audio, a broken cover, a missing name or file, and leaves no file behind', async () => {
    const notAudio = await upload('/api/admin/audio/bonus/', {
      name: 'Rain',
      audio_file: { filename: 'rain.mp3', content: Buffer.from('<html>not audio</html>') },
    });
    expect(notAudio.statusCode).toBe(400);
    expect(notAudio.json()).toEqual({ audio_file: ['Upload an audio file: MP3, OGG, WAV, M4A/AAC or FLAC.'] });
    for (const [filename, content] of headersOnly) {
      const answer = await upload('/api/admin/audio/bonus/', {
        name: `Rain ${filename}`,
        audio_file: { filename, content },
      });
      expect([filename, answer.statusCode, answer.json()]).toEqual([
        filename,
        400,
        { audio_file: ['Upload an audio file: MP3, OGG, WAV, M4A/AAC or FLAC.'] },
      ]);
    }
    const badCover = await upload('/api/admin/audio/bonus/', {
      name: 'Rain',
      audio_file: { filename: 'rain.mp3', content: fakeMp3() },
      cover_image: { filename: 'cover.png', content: Buffer.from('\x89PNG broken', 'latin1') },
    });
    expect(badCover.statusCode).toBe(400);
    expect(badCover.json()).toHaveProperty('cover_image');
    const noName = await upload('/api/admin/audio/bonus/', {
      audio_file: { filename: 'rain.mp3', content: fakeMp3() },
    });
    expect(noName.json()).toEqual({ name: ['This field is required.'] });
    const noFile = await upload('/api/admin/audio/bonus/', { name: 'Rain' });
    expect(noFile.json()).toEqual({ audio_file: ['No file was submitted.'] });
    const unexpected = await upload('/api/admin/audio/bonus/', {
      name: 'Rain',
      other: { filename: 'x', content: Buffer.from('x') },
    });
    expect(unexpected.statusCode).toBe(400);
    const notMultipart = await t.app.inject({
      method: 'POST',
      url: '/api/admin/audio/bonus/',
      headers: staff.headers,
      payload: { name: 'Rain' },
    });
    expect(notMultipart.statusCode).toBe(415);
    // A library that does not exist is a path that names nothing.
    const badKind = await upload('/api/admin/audio/podcasts/', { name: 'Rain' });
    expect(badKind.statusCode).toBe(404);
    expect(mediaFiles(t)).toEqual([]);
  });

  it('refuses a second item with the same name in one library and removes the file it placed', async () => {
    const first = await upload('/api/admin/audio/custom/', {
      name: 'Drone',
      audio_file: { filename: 'a.mp3', content: fakeMp3() },
    });
    expect(first.statusCode).toBe(201);
    const clash = await upload('/api/admin/audio/custom/', {
      name: 'Drone',
      audio_file: { filename: 'b.mp3', content: fakeMp3() },
    });
    expect(clash.statusCode).toBe(400);
    expect(clash.json()).toEqual({ name: ['An audio item with this name already exists in this library.'] });
    // A name is one whatever its case and the spaces around it.
    const otherCase = await upload('/api/admin/audio/custom/', {
      name: '  dRONE ',
      audio_file: { filename: 'c.mp3', content: fakeMp3() },
    });
    expect(otherCase.statusCode).toBe(400);
    expect(otherCase.json()).toEqual({ name: ['An audio item with this name already exists in this library.'] });
    // Nor whatever is drawn as nothing inside it: a word joiner, a soft hyphen (decision 091).
    for (const name of ['Dro\u2060ne', 'DR\u00adONE'])
      expect(
        (
          await upload('/api/admin/audio/custom/', { name, audio_file: { filename: 'c.mp3', content: fakeMp3() } })
        ).json(),
      ).toEqual({ name: ['An audio item with this name already exists in this library.'] });
    expect(mediaFiles(t)).toEqual([new URL(first.json().audio_file).pathname.replace('/media/', '')]);
    const second = await upload('/api/admin/audio/custom/', {
      name: 'Hum',
      audio_file: { filename: 'd.mp3', content: fakeMp3() },
    });
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/audio/custom/${second.json().id}/`,
      headers: staff.headers,
      payload: { name: 'dr\u200bone' },
    });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json()).toEqual({ name: ['An audio item with this name already exists in this library.'] });
    // Its own name in another case is a rename, and another library may have the name.
    const recased = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/audio/custom/${first.json().id}/`,
      headers: staff.headers,
      payload: { name: 'DRONE' },
    });
    expect(recased.json()).toMatchObject({ name: 'DRONE' });
    const elsewhere = await upload('/api/admin/audio/bonus/', {
      name: 'drone',
      audio_file: { filename: 'e.mp3', content: fakeMp3() },
    });
    expect(elsewhere.statusCode).toBe(201);
    for (const [kind, id] of [
      ['custom', second.json().id],
      ['bonus', elsewhere.json().id],
    ])
      await t.app.inject({ method: 'DELETE', url: `/api/admin/audio/${kind}/${id}/`, headers: staff.headers });
    await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/audio/custom/${first.json().id}/`,
      headers: staff.headers,
    });
  });

  it('refuses a control or direction character inside an audio name or an installer version, and keeps no file', async () => {
    const bell = await upload('/api/admin/audio/bonus/', {
      name: 'Ra\u0007in',
      audio_file: { filename: 'rain.mp3', content: fakeMp3() },
    });
    expect(bell.json()).toEqual({ name: [CONTROL_CHARACTER_REFUSED] });
    const app = await upload('/api/admin/applications/', {
      application_version: '2.0 \u202eexe',
      application_file: { filename: 'a.exe', content: randomBytes(10) },
    });
    expect(app.json()).toEqual({ application_version: [DIRECTION_CONTROL_REFUSED] });
    const item = (
      await upload('/api/admin/audio/bonus/', { name: 'Rain', audio_file: { filename: 'r.mp3', content: fakeMp3() } })
    ).json();
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/audio/bonus/${item.id}/`,
      headers: staff.headers,
      payload: { name: 'Ra\u001bin' },
    });
    expect(renamed.json()).toEqual({ name: [CONTROL_CHARACTER_REFUSED] });
    await t.app.inject({ method: 'DELETE', url: `/api/admin/audio/bonus/${item.id}/`, headers: staff.headers });
    expect(mediaFiles(t)).toEqual([]);
  });

  it('edits an audio item’s name or description alone, refuses an edit that changes nothing, and one begun from a text changed meanwhile', async () => {
    const item = (
      await upload('/api/admin/audio/bonus/', {
        name: 'Waves',
        description: 'Slow surf.',
        audio_file: { filename: 'w.mp3', content: fakeMp3() },
      })
    ).json();
    const edit = (payload: object) =>
      t.app.inject({ method: 'PATCH', url: `/api/admin/audio/bonus/${item.id}/`, headers: staff.headers, payload });
    const stored = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/admin/audio/bonus/', headers: staff.headers }))
        .json()
        .find((row: { id: number }) => row.id === item.id);

    // A rename keeps the description; an edit giving neither field is refused, not answered as done.
    expect((await edit({ name: 'Surf' })).json()).toMatchObject({ name: 'Surf', description: 'Slow surf.' });
    for (const nothing of [{}, { previous_name: 'Surf' }]) {
      const refused = await edit(nothing);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ non_field_errors: [AUDIO_UPDATE_EMPTY_MESSAGE] });
    }
    // Two renames from one name at once: one is taken, the other refused and said in the shared words.
    const both = await Promise.all([
      edit({ name: 'Tide', previous_name: 'Surf' }),
      edit({ name: 'Swell', previous_name: 'Surf' }),
    ]);
    expect(both.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((answer) => answer.statusCode === 409)!.json()).toEqual({
      detail: changedMeanwhileMessage('name'),
      code: 'changed_meanwhile',
    });
    const name = both.find((answer) => answer.statusCode === 200)!.json().name;
    // A description begun from one it no longer has is refused with its name unchanged; from what it reads, saved.
    const stale = await edit({ name: 'Other', description: 'Fast surf.', previous_description: 'Surf at dawn.' });
    expect(stale.json()).toEqual({ detail: changedMeanwhileMessage('description'), code: 'changed_meanwhile' });
    expect(await stored()).toMatchObject({ name, description: 'Slow surf.' });
    expect((await edit({ description: '', previous_description: 'Slow surf.' })).json()).toMatchObject({
      name,
      description: '',
    });
    expect((await edit({ description: 'Again.', previous_description: '' })).statusCode).toBe(200);
    // A description is a typed text too.
    expect((await edit({ description: 'Surf \u202eexe' })).json()).toEqual({
      description: [DIRECTION_CONTROL_REFUSED],
    });
    expect((await edit({ description: '\u200bSlow\u0007 surf.' })).json()).toEqual({
      description: [CONTROL_CHARACTER_REFUSED],
    });
    expect((await edit({ description: '\u200bCalm surf.\u200b' })).json()).toMatchObject({ description: 'Calm surf.' });
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: '/api/admin/audio/bonus/999999/',
          headers: staff.headers,
          payload: { name: 'x', previous_name: 'y' },
        })
      ).statusCode,
    ).toBe(404);
    await t.app.inject({ method: 'DELETE', url: `/api/admin/audio/bonus/${item.id}/`, headers: staff.headers });
    expect(mediaFiles(t)).toEqual([]);
  });

  it('uploads an installer under a content-addressed name with its extension, and deletes it', async () => {
    const installer = randomBytes(40 * 1024);
    const res = await upload('/api/admin/applications/', {
      application_version: '2.1.0',
      description: 'Windows',
      application_file: { filename: 'Innerwave Setup.EXE', content: installer },
    });
    expect(res.statusCode).toBe(201);
    const sha = createHash('sha256').update(installer).digest('hex');
    expect(res.json()).toMatchObject({
      application_version: '2.1.0',
      description: 'Windows',
      application_file: signedMediaUrl(`applications/${sha}.exe`, 'Innerwave-2.1.0.exe'),
      size_bytes: installer.length,
    });
    const appImage = await upload('/api/admin/applications/', {
      application_version: '2.1.0',
      application_file: { filename: 'innerwave.appimage', content: randomBytes(100) },
    });
    expect(new URL(appImage.json().application_file).pathname).toMatch(/\.AppImage$/);
    // A second installer of one type for a version (whatever its case) is refused, and its file not kept.
    const filesBefore = mediaFiles(t);
    const again = await upload('/api/admin/applications/', {
      application_version: ' 2.1.0 ',
      application_file: { filename: 'setup.exe', content: randomBytes(200) },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      application_version: ['An application with this version already exists for .exe installers.'],
    });
    expect(mediaFiles(t)).toEqual(filesBefore);
    // Another type, or another version, is another download.
    const msi = await upload('/api/admin/applications/', {
      application_version: '2.1.0',
      application_file: { filename: 'setup.msi', content: randomBytes(300) },
    });
    expect(msi.statusCode).toBe(201);
    const next = await upload('/api/admin/applications/', {
      application_version: '2.2.0-beta',
      application_file: { filename: 'setup.exe', content: installer },
    });
    expect(next.statusCode).toBe(201);
    const otherCase = await upload('/api/admin/applications/', {
      application_version: '2.2.0-BETA',
      application_file: { filename: 'setup.exe', content: randomBytes(200) },
    });
    expect(otherCase.json()).toEqual({
      application_version: ['An application with this version already exists for .exe installers.'],
    });
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/applications/', headers: staff.headers });
    expect(list.json()).toHaveLength(4);
    for (const app of list.json() as Array<{ id: number }>) {
      expect(
        (await t.app.inject({ method: 'DELETE', url: `/api/admin/applications/${app.id}/`, headers: staff.headers }))
          .statusCode,
      ).toBe(204);
    }
    expect(mediaFiles(t)).toEqual([]);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/admin/applications/99999/', headers: staff.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('refuses an installer that is too large, has no safe extension, is empty, or lacks a version', async () => {
    const tooLarge = await upload('/api/admin/applications/', {
      application_version: '1',
      application_file: { filename: 'a.exe', content: randomBytes(64 * 1024 + 1) },
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({ detail: 'The file is larger than 64\u00a0KB.' });
    // Further over, in the same words: the form's stream, not the staging, is what stops it then.
    for (const over of [2, 64 * 1024]) {
      const further = await upload('/api/admin/applications/', {
        application_version: '1',
        application_file: { filename: 'a.exe', content: randomBytes(64 * 1024 + over) },
      });
      expect(further.statusCode).toBe(413);
      expect(further.json()).toEqual({ detail: 'The file is larger than 64\u00a0KB.' });
    }
    const script = await upload('/api/admin/applications/', {
      application_version: '1',
      application_file: { filename: 'install.sh', content: randomBytes(10) },
    });
    expect(script.json()).toEqual({
      application_file: ['Upload an installer: .exe, .msi, .dmg, .pkg, .zip, .AppImage, .deb.'],
    });
    const empty = await upload('/api/admin/applications/', {
      application_version: '1',
      application_file: { filename: 'a.exe', content: Buffer.alloc(0) },
    });
    expect(empty.json()).toEqual({ application_file: ['The submitted file is empty.'] });
    const noVersion = await upload('/api/admin/applications/', {
      application_version: ' ',
      application_file: { filename: 'a.exe', content: randomBytes(10) },
    });
    expect(noVersion.json()).toEqual({ application_version: ['This field may not be blank.'] });
    expect(mediaFiles(t)).toEqual([]);
  });
});
