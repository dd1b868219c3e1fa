import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, CONTROL_CHARACTER_REFUSED, fillPath } from '@shared/contract';
import { PLAN_LIMITS } from '@shared/plans';
import { savedSubliminals } from '../db/schema';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { ownTestKit } from './test-kit';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { call, setPlan } = ownTestKit(() => t);
const subliminalPath = (id: number) => fillPath(API.subliminal, { id });
const sharePath = (id: number) => fillPath(API.subliminalShare, { id });
const categorySharePath = (id: number) => fillPath(API.myCategoryShare, { id });

const settings = { flashSpeed: 120, displayInterval: 2500, messageColor: '#FDBA74', fontSize: 30, theme: 'dawn' };
const playlist = [
  { message_text: 'I am calm.', source: 'library', message_id: 3 },
  { message_text: 'I begin the day slowly.', source: 'own', message_id: 9 },
];
const morning = { name: 'Morning calm', playlist, settings };

async function userOn(plan: 'basic' | 'intermediate' | 'pro') {
  const user = await signedInUser(t.ctx);
  if (plan !== 'basic') await setPlan(user, plan);
  return user;
}
const save = async (user: SignedInUser, body: object = morning) =>
  (await call(user, 'POST', API.subliminals, body)).json();

describe('saved subliminals', () => {
  it('need a signed-in user, as do their shares and the export', async () => {
    for (const [method, url] of [
      ['GET', API.subliminals],
      ['POST', API.subliminals],
      ['GET', subliminalPath(1)],
      ['PUT', subliminalPath(1)],
      ['DELETE', subliminalPath(1)],
      ['POST', sharePath(1)],
      ['DELETE', sharePath(1)],
      ['POST', categorySharePath(1)],
      ['DELETE', categorySharePath(1)],
      ['GET', API.myMessagesExport],
    ] as const)
      expect(
        (await call(undefined, method, url, method === 'POST' || method === 'PUT' ? morning : undefined)).statusCode,
        `${method} ${url}`,
      ).toBe(401);
  });

  it('are saved, listed newest change first, read, replaced and deleted', async () => {
    const ada = await userOn('intermediate');
    expect((await call(ada, 'GET', API.subliminals)).json()).toEqual([]);
    const created = await call(ada, 'POST', API.subliminals, { ...morning, name: '  Morning calm ' });
    expect(created.statusCode).toBe(201);
    const first = created.json();
    expect(first).toEqual({
      id: expect.any(Number),
      ...morning,
      sound: null,
      share: null,
      created_at: expect.any(String),
      updated_at: first.created_at,
      gone_tracks: [],
    });
    const second = await save(ada, { ...morning, name: 'Evening', playlist: playlist.slice(0, 1) });
    expect((await call(ada, 'GET', API.subliminals)).json().map((s: { id: number }) => s.id)).toEqual([
      second.id,
      first.id,
    ]);

    const replaced = await call(ada, 'PUT', subliminalPath(first.id), {
      name: 'Morning, renamed',
      playlist: playlist.slice(1),
      settings: { ...settings, theme: 'custom', customTheme: { background: '#112233', font: 'mono' } },
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({ id: first.id, name: 'Morning, renamed', playlist: playlist.slice(1) });
    expect(Date.parse(replaced.json().updated_at)).toBeGreaterThan(Date.parse(first.updated_at));
    // A read is the subliminal as the replace answered it, less what that save left out (none here).
    const { gone_tracks: left, ...stored } = replaced.json();
    expect(left).toEqual([]);
    expect((await call(ada, 'GET', subliminalPath(first.id))).json()).toEqual(stored);
    expect((await call(ada, 'GET', API.subliminals)).json()).toEqual([
      {
        id: first.id,
        name: 'Morning, renamed',
        message_count: 1,
        theme: 'custom',
        layer_count: 0,
        shared: false,
        updated_at: replaced.json().updated_at,
      },
      {
        id: second.id,
        name: 'Evening',
        message_count: 1,
        theme: 'dawn',
        layer_count: 0,
        shared: false,
        updated_at: second.updated_at,
      },
    ]);

    expect((await call(ada, 'DELETE', subliminalPath(first.id))).statusCode).toBe(204);
    expect((await call(ada, 'GET', subliminalPath(first.id))).statusCode).toBe(404);
    expect((await call(ada, 'DELETE', subliminalPath(first.id))).statusCode).toBe(404);
    expect((await call(ada, 'GET', API.subliminals)).json()).toHaveLength(1);
  });

  it('refuse a blank or long name, no messages, unknown themes and half a custom theme, and keep what was saved', async () => {
    const ada = await userOn('intermediate');
    const { id } = await save(ada);
    for (const [body, errors] of [
      [{ ...morning, name: '  ' }, { name: ['This field may not be blank.'] }],
      [{ ...morning, name: 'x'.repeat(81) }, { name: ['Ensure this field has no more than 80 characters.'] }],
      [{ ...morning, playlist: [] }, { playlist: ['A subliminal needs at least one message.'] }],
      [
        { ...morning, settings: { ...settings, theme: 'neon' } },
        { settings: { theme: ['Choose one of the themes.'] } },
      ],
      [
        { ...morning, settings: { ...settings, theme: 'custom' } },
        {
          settings: {
            customTheme: ['A custom theme needs its background and font, and only a custom theme has them.'],
          },
        },
      ],
      [
        { ...morning, settings: { ...settings, theme: 'custom', customTheme: { background: 'red' } } },
        {
          settings: { customTheme: { background: ['Enter a colour as #RRGGBB.'], font: ['This field is required.'] } },
        },
      ],
      [{ name: 'No settings', playlist }, { settings: ['This field is required.'] }],
      [
        { name: 'Empty settings', playlist, settings: {} },
        {
          settings: {
            flashSpeed: ['This field is required.'],
            displayInterval: ['This field is required.'],
            messageColor: ['This field is required.'],
            fontSize: ['This field is required.'],
          },
        },
      ],
      [
        { name: 'Part of the settings', playlist, settings: { ...settings, fontSize: undefined, flashSpeed: 'fast' } },
        { settings: { flashSpeed: ['A valid integer is required.'], fontSize: ['This field is required.'] } },
      ],
      [
        {
          ...morning,
          playlist: [
            { ...playlist[0], message_id: 'x' },
            { ...playlist[0], message_id: 'y' },
          ],
        },
        { playlist: ['A valid integer is required.'] },
      ],
    ] as const) {
      for (const [method, url] of [
        ['POST', API.subliminals],
        ['PUT', subliminalPath(id)],
      ] as const) {
        const refused = await call(ada, method, url, body);
        expect(refused.statusCode, `${method} ${JSON.stringify(body)}`).toBe(400);
        expect(refused.json()).toEqual(errors);
      }
    }
    expect((await call(ada, 'GET', API.subliminals)).json()).toHaveLength(1);
    expect((await call(ada, 'GET', subliminalPath(id))).json()).toMatchObject(morning);
  });

  it('take back a name stored with a control character before 063 as it is, with their messages changed, until it is typed anew', async () => {
    const ada = await userOn('intermediate');
    // As a row written before the rule holds it (decision 133).
    const [old] = await t.database.db
      .insert(savedSubliminals)
      .values({ userId: ada.id, name: 'Even\u0007ing', playlist, settings })
      .returning({ id: savedSubliminals.id });
    const update = { ...morning, name: 'Even\u0007ing', playlist: [playlist[1]!] };
    const updated = await call(ada, 'PUT', subliminalPath(old!.id), update);
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Even\u0007ing', playlist: [playlist[1]] });
    // What else the body gets wrong is still said, the name left alone.
    const wrong = await call(ada, 'PUT', subliminalPath(old!.id), { ...update, playlist: [] });
    expect(wrong.json()).toEqual({ playlist: ['A subliminal needs at least one message.'] });
    // Typed anew, for this one, a new one or another person's of that id, it is refused as any typed text is.
    for (const [user, method, url] of [
      [ada, 'PUT', subliminalPath(old!.id)],
      [ada, 'POST', API.subliminals],
      [await userOn('intermediate'), 'PUT', subliminalPath(old!.id)],
    ] as const) {
      const typed = await call(user, method, url, { ...update, name: 'Eve\u0007ning' });
      expect(typed.json(), `${method} ${url}`).toEqual({ name: [CONTROL_CHARACTER_REFUSED] });
    }
    expect((await call(ada, 'POST', API.subliminals, update)).json()).toEqual({ name: [CONTROL_CHARACTER_REFUSED] });
    expect((await call(ada, 'GET', subliminalPath(old!.id))).json()).toMatchObject({
      name: 'Even\u0007ing',
      playlist: [playlist[1]],
    });
    // Read as stored in the account's export too.
    const exported = await call(ada, 'GET', API.userExport);
    expect(exported.statusCode).toBe(200);
    expect(JSON.parse(exported.body).saved_subliminals).toMatchObject([{ name: 'Even\u0007ing' }]);
  });

  it('refuse settings between their steps, and read those stored before steps were checked at the nearest step, shared and copied too', async () => {
    const ada = await userOn('intermediate');
    const refused = await call(ada, 'POST', API.subliminals, { ...morning, settings: { ...settings, fontSize: 31 } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ settings: { fontSize: ['Ensure this value is a multiple of step size 2.'] } });
    const update = await call(ada, 'PUT', subliminalPath((await save(ada)).id), {
      ...morning,
      settings: { ...settings, flashSpeed: 125 },
    });
    expect(update.json()).toEqual({ settings: { flashSpeed: ['Ensure this value is a multiple of step size 10.'] } });

    const offStep = { ...settings, flashSpeed: 125, displayInterval: 2750, fontSize: 31 };
    const onStep = { ...settings, flashSpeed: 130, displayInterval: 3000, fontSize: 32 };
    const stored = await t.database.db
      .insert(savedSubliminals)
      .values([
        { userId: ada.id, name: 'Kept', playlist, settings: offStep },
        { userId: ada.id, name: 'Shared', playlist, settings: offStep },
      ])
      .returning({ id: savedSubliminals.id });
    const [kept, shared] = stored.map((row) => row.id);
    const read = (await call(ada, 'GET', subliminalPath(kept!))).json();
    expect(read.settings).toEqual(onStep);
    // Renaming sends back what it read.
    const renamed = await call(ada, 'PUT', subliminalPath(kept!), { ...read, name: 'Renamed' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().settings).toEqual(onStep);

    const { token } = (await call(ada, 'POST', sharePath(shared!))).json();
    expect((await call(undefined, 'GET', fillPath(API.shared, { token }))).json().settings).toEqual(onStep);
    const copy = await call(ada, 'POST', fillPath(API.sharedCopy, { token }));
    expect(copy.statusCode).toBe(201);
    expect(copy.json().subliminal.settings).toEqual(onStep);
  });

  it("are their owner's only: another person's ids are not found, for every call", async () => {
    const ada = await userOn('pro');
    const bob = await userOn('pro');
    const subliminal = await save(ada);
    const category = (await call(ada, 'POST', API.myCategories, { name: 'Mine' })).json();
    expect((await call(ada, 'POST', sharePath(subliminal.id))).statusCode).toBe(201);
    expect((await call(ada, 'POST', categorySharePath(category.id))).statusCode).toBe(201);

    expect((await call(bob, 'GET', API.subliminals)).json()).toEqual([]);
    for (const [method, url, body] of [
      ['GET', subliminalPath(subliminal.id), undefined],
      ['PUT', subliminalPath(subliminal.id), morning],
      ['DELETE', subliminalPath(subliminal.id), undefined],
      ['POST', sharePath(subliminal.id), undefined],
      ['DELETE', sharePath(subliminal.id), undefined],
      ['POST', categorySharePath(category.id), undefined],
      ['DELETE', categorySharePath(category.id), undefined],
    ] as const) {
      const refused = await call(bob, method, url, body);
      expect(refused.statusCode, `${method} ${url}`).toBe(404);
      expect(refused.json()).toEqual({ detail: 'Not found.' });
    }
    const kept = (await call(ada, 'GET', subliminalPath(subliminal.id))).json();
    expect(kept).toMatchObject({ ...morning, share: { token: expect.any(String) } });
    expect((await call(ada, 'GET', fillPath(API.myCategory, { id: category.id }))).json().share).not.toBeNull();
  });

  it('are any number within one fair-use cap, the same on Intermediate and Pro, that says to delete one', async () => {
    const ada = await userOn('intermediate');
    const cap = PLAN_LIMITS.intermediate.savedSubliminals;
    expect(PLAN_LIMITS.pro.savedSubliminals).toBe(cap);
    await t.database.db
      .insert(savedSubliminals)
      .values(Array.from({ length: cap }, (_, i) => ({ userId: ada.id, name: `Saved ${i}`, playlist, settings })));
    for (const plan of ['intermediate', 'pro'] as const) {
      await setPlan(ada, plan);
      const refused = await call(ada, 'POST', API.subliminals, morning);
      expect(refused.statusCode, plan).toBe(403);
      expect(refused.json()).toEqual({
        detail: `Your plan keeps up to ${cap} saved subliminals of your own. Delete one to add another.`,
        code: 'plan_limit',
      });
    }
    expect((await call(ada, 'GET', API.plan)).json().usage.savedSubliminals).toBe(cap);
    // The list is served whole.
    expect((await call(ada, 'GET', API.subliminals)).json()).toHaveLength(cap);
    await call(ada, 'DELETE', subliminalPath((await call(ada, 'GET', API.subliminals)).json()[0].id));
    expect((await call(ada, 'POST', API.subliminals, morning)).statusCode).toBe(201);
  });
});

describe('the plans', () => {
  const planRequired = (detail: string, plan: string) => ({ detail, code: 'plan_required', required_plan: plan });
  const saving = planRequired('Saving subliminals is part of the Intermediate plan.', 'intermediate');
  const sharing = planRequired('Sharing subliminals is part of the Intermediate plan.', 'intermediate');
  const sharingMessages = planRequired('Sharing message sets is part of the Pro plan.', 'pro');
  const exporting = planRequired('Exporting your messages is part of the Pro plan.', 'pro');

  it('gate each call: Basic saves and shares nothing, Intermediate saves and shares subliminals, Pro also shares and exports messages', async () => {
    const owner = await userOn('pro');
    const ownSubliminal = await save(owner);
    const ownCategory = (await call(owner, 'POST', API.myCategories, { name: 'Set' })).json();
    const expected = {
      basic: { save: saving, replace: saving, share: sharing, shareMessages: sharingMessages, export: exporting },
      intermediate: { save: 201, replace: 200, share: 201, shareMessages: sharingMessages, export: exporting },
      pro: { save: 201, replace: 200, share: 201, shareMessages: 201, export: 200 },
    } as const;
    for (const plan of ['basic', 'intermediate', 'pro'] as const) {
      const user = await userOn(plan);
      // Each user's own rows, so that only the plan decides (a Basic user's come from a higher plan).
      await setPlan(user, 'pro');
      const subliminal = await save(user);
      const category = (await call(user, 'POST', API.myCategories, { name: 'Set' })).json();
      await setPlan(user, plan);
      const answers = {
        save: await call(user, 'POST', API.subliminals, morning),
        replace: await call(user, 'PUT', subliminalPath(subliminal.id), morning),
        share: await call(user, 'POST', sharePath(subliminal.id)),
        shareMessages: await call(user, 'POST', categorySharePath(category.id)),
        export: await call(user, 'GET', `${API.myMessagesExport}?format=json`),
      };
      for (const [name, answer] of Object.entries(answers)) {
        const want = expected[plan][name as keyof typeof answers];
        if (typeof want === 'number') expect(answer.statusCode, `${plan} ${name}`).toBe(want);
        else {
          expect(answer.statusCode, `${plan} ${name}`).toBe(403);
          expect(answer.json(), `${plan} ${name}`).toEqual(want);
        }
      }
      // The plan is told before the body or the id is looked at.
      if (plan === 'basic') {
        expect((await call(user, 'POST', API.subliminals, { name: '' })).json()).toEqual(saving);
        expect((await call(user, 'POST', sharePath(ownSubliminal.id))).json()).toEqual(sharing);
        expect((await call(user, 'POST', categorySharePath(ownCategory.id))).json()).toEqual(sharingMessages);
        expect((await call(user, 'GET', `${API.myMessagesExport}?format=xls`)).json()).toEqual(exporting);
      }
    }
  });

  it('keep everything after a downgrade: read, play, revoke and delete, but not save or share anew', async () => {
    const ada = await userOn('intermediate');
    const subliminal = await save(ada);
    const link = (await call(ada, 'POST', sharePath(subliminal.id))).json();
    await setPlan(ada, 'basic');

    const read = await call(ada, 'GET', subliminalPath(subliminal.id));
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ ...morning, share: link });
    expect((await call(ada, 'GET', API.subliminals)).json()).toHaveLength(1);
    expect((await call(ada, 'GET', API.plan)).json().usage.savedSubliminals).toBe(1);
    expect((await call(ada, 'PUT', subliminalPath(subliminal.id), morning)).statusCode).toBe(403);
    expect((await call(ada, 'POST', sharePath(subliminal.id))).statusCode).toBe(403);
    // The link stays live until its owner revokes it, which a downgrade does not prevent.
    expect((await call(undefined, 'GET', fillPath(API.shared, { token: link.token }))).statusCode).toBe(200);
    expect((await call(ada, 'DELETE', sharePath(subliminal.id))).statusCode).toBe(204);
    expect((await call(undefined, 'GET', fillPath(API.shared, { token: link.token }))).statusCode).toBe(404);
    expect((await call(ada, 'DELETE', subliminalPath(subliminal.id))).statusCode).toBe(204);
    expect((await call(ada, 'GET', API.subliminals)).json()).toEqual([]);
  });
});
