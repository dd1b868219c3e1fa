import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API, fillPath, OWN_CATEGORY_NAME_MAX, SHARE_TOKEN_PATTERN } from '@shared/contract';
import { PLAN_LIMITS } from '@shared/plans';
import { ownCategories, savedSubliminals, users } from '../db/schema';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { lockUserRow } from '../db/user-lock';
import { ownTestKit } from './test-kit';
import { waitingOnLocks } from '../test/database';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { call, setPlan, ownMessagesUpTo } = ownTestKit(() => t);
const sharePath = (id: number) => fillPath(API.subliminalShare, { id });
const categorySharePath = (id: number) => fillPath(API.myCategoryShare, { id });
const sharedPath = (token: string) => fillPath(API.shared, { token });
const copyPath = (token: string) => fillPath(API.sharedCopy, { token });

const settings = { flashSpeed: 120, displayInterval: 2500, messageColor: '#7DD3FC', fontSize: 30, theme: 'ocean' };
const playlist = [
  { message_text: 'I am calm.', source: 'library', message_id: 3 },
  { message_text: 'I breathe out slowly.', source: 'own', message_id: 9 },
];

async function userOn(plan: 'basic' | 'intermediate' | 'pro') {
  const user = await signedInUser(t.ctx);
  if (plan !== 'basic') await setPlan(user, plan);
  return user;
}
/** `count` saved subliminals of `user`'s, straight into the table: a plan filled up to where a test wants it. */
async function savedSubliminalsOf(user: SignedInUser, count: number) {
  await t.database.db
    .insert(savedSubliminals)
    .values(Array.from({ length: count }, (_, i) => ({ userId: user.id, name: `Saved ${i}`, playlist, settings })));
}
async function sharedSubliminal(owner: SignedInUser) {
  const subliminal = (
    await call(owner, 'POST', API.subliminals, { name: 'Evening wind-down', playlist, settings })
  ).json();
  const link = (await call(owner, 'POST', sharePath(subliminal.id))).json();
  return { subliminal, link };
}
async function sharedCategory(owner: SignedInUser, texts = ['I rest well.', 'I wake rested.'], name = 'Sleep') {
  const category = (await call(owner, 'POST', API.myCategories, { name })).json();
  for (const message_text of texts)
    await call(owner, 'POST', fillPath(API.myCategoryMessages, { id: category.id }), { message_text });
  const link = (await call(owner, 'POST', categorySharePath(category.id))).json();
  return { category, link };
}

describe('sharing a saved subliminal', () => {
  it('makes one link, shows anyone its name, texts and settings only, and revoking kills the link at once', async () => {
    const ada = await userOn('intermediate');
    const { subliminal } = await sharedSubliminal(ada);
    await call(ada, 'DELETE', sharePath(subliminal.id));
    const shared = await call(ada, 'POST', sharePath(subliminal.id));
    expect(shared.statusCode).toBe(201);
    const link = shared.json();
    expect(link.token).toMatch(SHARE_TOKEN_PATTERN);
    expect(link).toEqual({ token: link.token, url: `http://innerwave.test/s/${link.token}` });
    const again = await call(ada, 'POST', sharePath(subliminal.id));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(link);
    expect((await call(ada, 'GET', fillPath(API.subliminal, { id: subliminal.id }))).json().share).toEqual(link);
    expect((await call(ada, 'GET', API.subliminals)).json()[0].shared).toBe(true);

    const view = await call(undefined, 'GET', sharedPath(link.token));
    expect(view.statusCode).toBe(200);
    expect(view.headers['cache-control']).toBe('no-store');
    expect(view.json()).toEqual({
      kind: 'subliminal',
      name: 'Evening wind-down',
      messages: ['I am calm.', 'I breathe out slowly.'],
      settings,
      sound: null,
      private_tracks: [],
      gone_tracks: [],
      shared_at: expect.any(String),
    });
    expect(view.body).not.toContain(ada.email);
    expect(view.body).not.toMatch(/"(id|message_id|user_id|token)"/);

    const revoked = await call(ada, 'DELETE', sharePath(subliminal.id));
    expect(revoked.statusCode).toBe(204);
    const gone = await call(undefined, 'GET', sharedPath(link.token));
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ detail: 'Not found.' });
    expect((await call(ada, 'DELETE', sharePath(subliminal.id))).statusCode).toBe(204);
    expect((await call(ada, 'GET', fillPath(API.subliminal, { id: subliminal.id }))).json().share).toBeNull();

    const renewed = (await call(ada, 'POST', sharePath(subliminal.id))).json();
    expect(renewed.token).not.toBe(link.token);
    expect((await call(undefined, 'GET', sharedPath(link.token))).statusCode).toBe(404);
    expect((await call(undefined, 'GET', sharedPath(renewed.token))).statusCode).toBe(200);
  });

  it('shows what the subliminal is now (an edit shows at once) and dies with the subliminal', async () => {
    const ada = await userOn('pro');
    const { subliminal, link } = await sharedSubliminal(ada);
    await call(ada, 'PUT', fillPath(API.subliminal, { id: subliminal.id }), {
      name: 'Renamed',
      playlist: playlist.slice(0, 1),
      settings,
    });
    expect((await call(undefined, 'GET', sharedPath(link.token))).json()).toMatchObject({
      name: 'Renamed',
      messages: ['I am calm.'],
    });
    await call(ada, 'DELETE', fillPath(API.subliminal, { id: subliminal.id }));
    expect((await call(undefined, 'GET', sharedPath(link.token))).statusCode).toBe(404);
  });
});

describe('sharing an own category (Pro)', () => {
  it('shows its name and texts to anyone, in order, and the owner sees the link on the category', async () => {
    const ada = await userOn('pro');
    const { category, link } = await sharedCategory(ada);
    expect(link.url).toBe(`http://innerwave.test/s/${link.token}`);
    const again = await call(ada, 'POST', categorySharePath(category.id));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(link);
    expect((await call(ada, 'GET', API.myCategories)).json()[0].share).toEqual(link);

    const view = await call(undefined, 'GET', sharedPath(link.token));
    expect(view.headers['cache-control']).toBe('no-store');
    expect(view.json()).toEqual({
      kind: 'messages',
      name: 'Sleep',
      messages: ['I rest well.', 'I wake rested.'],
      shared_at: expect.any(String),
    });
    expect((await call(ada, 'DELETE', categorySharePath(category.id))).statusCode).toBe(204);
    expect((await call(undefined, 'GET', sharedPath(link.token))).statusCode).toBe(404);
    expect((await call(ada, 'GET', API.myCategories)).json()[0].share).toBeNull();
  });
});

describe('a share link', () => {
  it('that is malformed, unknown, or of a deactivated account answers 404', async () => {
    for (const token of ['abc', 'A'.repeat(21), 'A'.repeat(23), `${'A'.repeat(21)}=`, `${'A'.repeat(21)}.`])
      expect((await call(undefined, 'GET', sharedPath(token))).statusCode, token).toBe(404);
    expect((await call(undefined, 'GET', sharedPath('A'.repeat(22)))).json()).toEqual({ detail: 'Not found.' });

    const ada = await userOn('pro');
    const { link } = await sharedSubliminal(ada);
    const messages = await sharedCategory(ada);
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.id, ada.id));
    expect((await call(undefined, 'GET', sharedPath(link.token))).statusCode).toBe(404);
    expect((await call(undefined, 'GET', sharedPath(messages.link.token))).statusCode).toBe(404);
  });

  it('is described in the OpenAPI document, the public view without sign-in', async () => {
    const { paths } = (await call(undefined, 'GET', '/api/openapi.json')).json();
    for (const [path, methods] of [
      ['/api/user/subliminals/', ['get', 'post']],
      ['/api/user/subliminals/{id}/', ['get', 'put', 'delete']],
      ['/api/user/subliminals/{id}/share/', ['post', 'delete']],
      ['/api/user/my-categories/{id}/share/', ['post', 'delete']],
      ['/api/user/my-messages/export/', ['get']],
      ['/api/shared/{token}/', ['get']],
      ['/api/shared/{token}/copy/', ['post']],
    ] as const)
      for (const method of methods)
        expect(paths[path]?.[method]?.summary, `${method} ${path}`).toEqual(expect.any(String));
    expect(paths['/api/shared/{token}/'].get.security).toBeUndefined();
    expect(paths['/api/shared/{token}/copy/'].post.security).toEqual([{ bearerAuth: [] }]);
  });
});

describe('the public view', () => {
  it('is limited per client address like the other calls open to anyone', async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT_PER_ADDRESS: '3' });
    try {
      const ask = (token: string) => limited.app.inject({ method: 'GET', url: sharedPath(token) });
      for (let i = 0; i < 3; i++) expect((await ask('B'.repeat(22))).statusCode).toBe(404);
      const refused = await ask('B'.repeat(22));
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Malformed tokens are refused before they are counted.
      expect((await ask('short')).statusCode).toBe(404);
    } finally {
      await limited.close();
    }
  });

  it('counts an IPv6 client by its /64, from which one machine can take any address', async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT_PER_ADDRESS: '3' });
    try {
      const ask = (remoteAddress: string) =>
        limited.app
          .inject({ method: 'GET', url: sharedPath('B'.repeat(22)), remoteAddress })
          .then((response) => response.statusCode);
      const statuses = [];
      for (let i = 1; i <= 4; i++) statuses.push(await ask(`2001:db8:7:8::${i}`));
      // Another network is another client.
      statuses.push(await ask('2001:db8:7:9::1'));
      expect(statuses).toEqual([404, 404, 404, 429, 404]);
    } finally {
      await limited.close();
    }
  });
});

describe('copying what is shared', () => {
  it('needs a signed-in person and a live link', async () => {
    const ada = await userOn('intermediate');
    const { subliminal, link } = await sharedSubliminal(ada);
    expect((await call(undefined, 'POST', copyPath(link.token))).statusCode).toBe(401);
    await call(ada, 'DELETE', sharePath(subliminal.id));
    expect((await call(ada, 'POST', copyPath(link.token))).statusCode).toBe(404);
    expect((await call(ada, 'POST', copyPath('nope'))).statusCode).toBe(404);
  });

  it('makes a subliminal the copier’s own saved subliminal (Intermediate and up, within the number)', async () => {
    const ada = await userOn('intermediate');
    const { subliminal, link } = await sharedSubliminal(ada);
    const bob = await userOn('basic');
    expect((await call(bob, 'POST', copyPath(link.token))).json()).toEqual({
      detail: 'Saving subliminals is part of the Intermediate plan.',
      code: 'plan_required',
      required_plan: 'intermediate',
    });
    await setPlan(bob, 'intermediate');
    const copied = await call(bob, 'POST', copyPath(link.token));
    expect(copied.statusCode).toBe(201);
    expect(copied.json()).toEqual({
      kind: 'subliminal',
      subliminal: {
        id: expect.any(Number),
        name: 'Evening wind-down',
        // The sharer's own message names no row of theirs in the copy.
        playlist: [playlist[0], { message_text: 'I breathe out slowly.', source: 'shared', message_id: 2 }],
        settings,
        sound: null,
        share: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    expect(copied.json().subliminal.id).not.toBe(subliminal.id);
    expect((await call(bob, 'GET', API.subliminals)).json()).toHaveLength(1);
    // A copy is the copier's: the sharer's later changes and revocation leave it be.
    await call(ada, 'DELETE', fillPath(API.subliminal, { id: subliminal.id }));
    expect((await call(bob, 'GET', fillPath(API.subliminal, { id: copied.json().subliminal.id }))).statusCode).toBe(
      200,
    );

    // One's own share may be copied too; the number of saved subliminals still counts.
    const own = await sharedSubliminal(bob);
    await savedSubliminalsOf(bob, PLAN_LIMITS.intermediate.savedSubliminals - 2);
    const full = await call(bob, 'POST', copyPath(own.link.token));
    expect(full.statusCode).toBe(403);
    expect(full.json()).toMatchObject({ code: 'plan_limit' });
    const kept = (await call(bob, 'GET', API.subliminals)).json() as { id: number; name: string }[];
    await call(bob, 'DELETE', fillPath(API.subliminal, { id: kept.find((saved) => saved.name === 'Saved 0')!.id }));
    const ownCopy = await call(bob, 'POST', copyPath(own.link.token));
    expect(ownCopy.statusCode).toBe(201);
    expect(ownCopy.json().subliminal.playlist).toEqual(playlist);
  });

  it('makes a message set a new own category of the copier, within both limits, all or nothing', async () => {
    const ada = await userOn('pro');
    const { link } = await sharedCategory(ada, ['One.', 'Two.', 'Three.']);
    const bob = await userOn('basic');
    const copied = await call(bob, 'POST', copyPath(link.token));
    expect(copied.statusCode).toBe(201);
    const { category } = copied.json();
    expect(copied.json()).toEqual({
      kind: 'messages',
      category: {
        id: expect.any(Number),
        name: 'Sleep',
        messages: ['One.', 'Two.', 'Three.'].map((message_text) => ({ id: expect.any(Number), message_text })),
        share: null,
      },
    });
    expect((await call(bob, 'GET', API.myCategories)).json()).toEqual([category]);

    // 198 of 200 messages: three more do not fit, and nothing of the copy is kept.
    const carol = await userOn('basic');
    await ownMessagesUpTo(carol, PLAN_LIMITS.basic.ownMessages - 2);
    const refused = await call(carol, 'POST', copyPath(link.token));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      detail: 'Your plan keeps up to 200 messages of your own. The Intermediate plan keeps more.',
      code: 'plan_limit',
      required_plan: 'intermediate',
    });
    const usage = (await call(carol, 'GET', API.plan)).json().usage;
    expect(usage).toMatchObject({ ownCategories: 1, ownMessages: PLAN_LIMITS.basic.ownMessages - 2 });

    // Categories count too.
    const dan = await userOn('basic');
    await t.database.db
      .insert(ownCategories)
      .values(Array.from({ length: PLAN_LIMITS.basic.ownCategories }, (_, i) => ({ userId: dan.id, name: `C${i}` })));
    expect((await call(dan, 'POST', copyPath(link.token))).json()).toMatchObject({ code: 'plan_limit' });
    expect((await call(dan, 'GET', API.plan)).json().usage.ownMessages).toBe(0);

    // The sharer may copy their own set: a name they have already (whatever its case) takes the next free number.
    await call(ada, 'POST', API.myCategories, { name: 'SLEEP (2)' });
    expect((await call(ada, 'POST', copyPath(link.token))).json().category.name).toBe('Sleep (3)');
    expect((await call(ada, 'GET', API.myCategories)).json().map((c: { name: string }) => c.name)).toEqual([
      'Sleep',
      'SLEEP (2)',
      'Sleep (3)',
    ]);
    expect((await call(bob, 'POST', copyPath(link.token))).json().category.name).toBe('Sleep (2)');
    // A name at the limit is shortened to keep its number within it.
    const long = 'L'.repeat(OWN_CATEGORY_NAME_MAX);
    const longShare = await sharedCategory(ada, ['One.'], long);
    expect((await call(ada, 'POST', copyPath(longShare.link.token))).json().category.name).toBe(
      `${'L'.repeat(OWN_CATEGORY_NAME_MAX - 4)} (2)`,
    );
    // Counted as the contract counts (an emoji is one character), and cut between whole emoji: never inside a
    // surrogate pair or a family's ZWJ sequence.
    const moons = await sharedCategory(ada, ['One.'], '🌙'.repeat(OWN_CATEGORY_NAME_MAX));
    expect((await call(ada, 'POST', copyPath(moons.link.token))).json().category.name).toBe(
      `${'🌙'.repeat(OWN_CATEGORY_NAME_MAX - 4)} (2)`,
    );
    const family = await sharedCategory(ada, ['One.'], `${'a'.repeat(OWN_CATEGORY_NAME_MAX - 6)}👨‍👩‍👧`);
    expect((await call(ada, 'POST', copyPath(family.link.token))).json().category.name).toBe(
      `${'a'.repeat(OWN_CATEGORY_NAME_MAX - 6)} (2)`,
    );
  });

  // A press's copy sent again, its answer lost, makes no second copy
  // (docs/decisions/148-an-own-track-is-named-as-ones-own-and-a-copy-is-made-once-a-press.md).
  describe('with the key of the press', () => {
    const KEY = '0b7c2d4e-5f60-4a1b-8c2d-3e4f5a6b7c8d';
    const OTHER_KEY = '1c8d3e5f-6071-4b2c-9d3e-4f5a6b7c8d9e';
    const savedNames = async (user: SignedInUser) =>
      ((await call(user, 'GET', API.subliminals)).json() as { name: string }[]).map((saved) => saved.name);

    it('answers a press sent again with the copy it made, 200, adding nothing, even at the limit or once revoked', async () => {
      const ada = await userOn('intermediate');
      const { subliminal, link } = await sharedSubliminal(ada);
      const bob = await userOn('intermediate');
      // Room for one more: the copy fills the plan.
      await savedSubliminalsOf(bob, PLAN_LIMITS.intermediate.savedSubliminals - 1);
      const first = await call(bob, 'POST', copyPath(link.token), { copy_key: KEY });
      expect(first.statusCode).toBe(201);
      const again = await call(bob, 'POST', copyPath(link.token), { copy_key: KEY });
      expect([again.statusCode, again.json()]).toEqual([200, first.json()]);
      // Another press is another copy the person asked for: refused by the limit the first one reached.
      const another = await call(bob, 'POST', copyPath(link.token), { copy_key: OTHER_KEY });
      expect([another.statusCode, another.json().code]).toEqual([403, 'plan_limit']);
      // The link revoked since: the press's copy is still the answer.
      await call(ada, 'DELETE', sharePath(subliminal.id));
      expect((await call(bob, 'POST', copyPath(link.token), { copy_key: KEY })).json()).toEqual(first.json());
      expect((await savedNames(bob)).filter((name) => name === 'Evening wind-down')).toHaveLength(1);
    });

    it('makes a copy for each other key, each call without one, and each person; refuses a key that is no UUID', async () => {
      const ada = await userOn('pro');
      const { link } = await sharedSubliminal(ada);
      const messages = await sharedCategory(ada);
      const bob = await userOn('pro');
      const made = [];
      for (const body of [{ copy_key: KEY }, { copy_key: OTHER_KEY }, undefined, {}])
        made.push(await call(bob, 'POST', copyPath(link.token), body));
      expect(made.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201]);
      expect(new Set(made.map((answer) => answer.json().subliminal.id)).size).toBe(4);
      // Ada's own press with Bob's key is hers.
      expect((await call(ada, 'POST', copyPath(link.token), { copy_key: KEY })).statusCode).toBe(201);
      // A message set's press too is one category, its number taken once.
      const set = await call(bob, 'POST', copyPath(messages.link.token), {
        copy_key: '2d9e4f60-7182-4c3d-8e4f-5a6b7c8d9e0f',
      });
      const setAgain = await call(bob, 'POST', copyPath(messages.link.token), {
        copy_key: '2d9e4f60-7182-4c3d-8e4f-5a6b7c8d9e0f',
      });
      expect([set.statusCode, setAgain.statusCode, setAgain.json()]).toEqual([201, 200, set.json()]);
      expect((await call(bob, 'GET', API.myCategories)).json().map((c: { name: string }) => c.name)).toEqual(['Sleep']);
      const refused = await call(bob, 'POST', copyPath(link.token), { copy_key: 'press-1' });
      expect([refused.statusCode, refused.json()]).toEqual([400, { copy_key: ['Must be a valid UUID.'] }]);
      expect(await savedNames(bob)).toHaveLength(4);
    });

    // PGlite runs one transaction at a time: the two are in turn there, as the test above sends them.
    it.runIf(inject('dbKind') === 'postgres')(
      'makes one copy of a press sent twice at once, the second answered with the first’s, with room or at the limit',
      async () => {
        const ada = await userOn('intermediate');
        const { link } = await sharedSubliminal(ada);
        for (const room of ['plenty', 'one'] as const) {
          const bob = await userOn('intermediate');
          if (room === 'one') await savedSubliminalsOf(bob, PLAN_LIMITS.intermediate.savedSubliminals - 1);
          let copies: Promise<Awaited<ReturnType<typeof call>>[]> | undefined;
          await t.database.db.transaction(async (tx) => {
            // The person's lock held: both find no copy of the key and wait for it to add theirs.
            await lockUserRow(tx, bob.id);
            copies = Promise.all(
              [0, 1].map(() => call(bob, 'POST', copyPath(link.token), { copy_key: KEY }).then((answer) => answer)),
            );
            await waitingOnLocks(t.database, 2);
          });
          const answers = await copies!;
          expect(answers.map((answer) => answer.statusCode).sort(), room).toEqual([200, 201]);
          expect(answers[0]!.json(), room).toEqual(answers[1]!.json());
          expect(
            (await savedNames(bob)).filter((name) => name === 'Evening wind-down'),
            room,
          ).toHaveLength(1);
        }
      },
    );
  });

  // PGlite runs one transaction at a time, so a name cannot be taken between a copy's choice and its insert there.
  describe.runIf(inject('dbKind') === 'postgres')('racing another write of the free name', () => {
    it('takes the next free number when a rename to the free one commits first', async () => {
      const ada = await userOn('pro');
      const { link } = await sharedCategory(ada);
      const other = (await call(ada, 'POST', API.myCategories, { name: 'Other' })).json();
      let copy: Promise<Awaited<ReturnType<typeof call>>> | undefined;
      await t.database.db.transaction(async (tx) => {
        // A rename takes no lock of the person's: the copy sees "Sleep (2)" free and waits on the index for it.
        await tx.update(ownCategories).set({ name: 'Sleep (2)' }).where(eq(ownCategories.id, other.id));
        // inject() sends the request once awaited; then() sends it now.
        copy = call(ada, 'POST', copyPath(link.token)).then((response) => response);
        await waitingOnLocks(t.database);
      });
      const copied = await copy!;
      expect(copied.statusCode).toBe(201);
      expect(copied.json().category.name).toBe('Sleep (3)');
    });

    /** Resolves once a connection of the test's database waits on a lock that the backend `pid` holds. */
    const someoneWaitsOn = async (pid: number) => {
      for (let tries = 0; tries < 1500; tries++) {
        const { rows } = (await t.database.db.execute(
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and ${pid} = any(pg_blocking_pids(pid))`,
        )) as unknown as { rows: { n: number }[] };
        if (rows[0]!.n > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`nothing waited on backend ${pid}`);
    };

    it('takes a free number, not a refusal, when renames keep taking the free one first', async () => {
      const ada = await userOn('pro');
      const { link } = await sharedCategory(ada);
      const others = [];
      for (let i = 0; i < 5; i++)
        others.push((await call(ada, 'POST', API.myCategories, { name: `Other ${i}` })).json());
      // Five renames under way at once, in transactions of their own, to "Sleep (2)" … "Sleep (6)".
      const renames = others.map((other: { id: number }, i) => {
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let started!: (pid: number) => void;
        const pid = new Promise<number>((resolve) => (started = resolve));
        const done = t.database.db.transaction(async (tx) => {
          await tx
            .update(ownCategories)
            .set({ name: `Sleep (${i + 2})` })
            .where(eq(ownCategories.id, other.id));
          const { rows } = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as {
            rows: { pid: number }[];
          };
          started(rows[0]!.pid);
          await released;
        });
        return { pid, release, done };
      });
      const copy = call(ada, 'POST', copyPath(link.token)).then((response) => response);
      // Each commits once the copy waits on it: the free name the copy chose is taken just then.
      for (const rename of renames) {
        await someoneWaitsOn(await rename.pid);
        rename.release();
        await rename.done;
      }
      const copied = await copy;
      expect([copied.statusCode, copied.json().category?.name]).toEqual([201, 'Sleep (7)']);
      expect((await call(ada, 'GET', API.myCategories)).json().map((c: { name: string }) => c.name)).toEqual([
        'Sleep',
        ...['Sleep (2)', 'Sleep (3)', 'Sleep (4)', 'Sleep (5)', 'Sleep (6)'],
        'Sleep (7)',
      ]);
    });

    it('takes the next free number when an add of that name commits first', async () => {
      const ada = await userOn('pro');
      const { link } = await sharedCategory(ada);
      let copy: Promise<Awaited<ReturnType<typeof call>>> | undefined;
      await t.database.db.transaction(async (tx) => {
        // As an add does: the person's lock, then the row.
        await lockUserRow(tx, ada.id);
        await tx.insert(ownCategories).values({ userId: ada.id, name: 'sleep (2)', position: 5 });
        copy = call(ada, 'POST', copyPath(link.token)).then((response) => response);
        await waitingOnLocks(t.database);
      });
      const copied = await copy!;
      expect(copied.statusCode).toBe(201);
      expect(copied.json().category.name).toBe('Sleep (3)');
    });
  });
});
