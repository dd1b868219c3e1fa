import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  CONTROL_CHARACTER_REFUSED,
  DIRECTION_CONTROL_REFUSED,
  fillPath,
  LIST_CHANGED_MESSAGE,
  MESSAGE_CHANGED_MESSAGE,
} from '@shared/contract';
import { PLAN_LIMITS } from '@shared/plans';
import { ownCategories, playerStates } from '../db/schema';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser } from '../test/fixtures';
import { ownTestKit } from './test-kit';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { call, setPlan, ownMessagesUpTo } = ownTestKit(() => t);
const categoryPath = (id: number) => fillPath(API.myCategory, { id });
const messagesPath = (id: number) => fillPath(API.myCategoryMessages, { id });
const messagePath = (id: number) => fillPath(API.myMessage, { id });
const messagesOrderPath = (id: number) => fillPath(API.myCategoryMessagesOrder, { id });

describe('own messages', () => {
  it('need a signed-in user', async () => {
    for (const [method, url] of [
      ['GET', API.myCategories],
      ['POST', API.myCategories],
      ['GET', categoryPath(1)],
      ['POST', messagesPath(1)],
      ['PATCH', messagePath(1)],
      ['GET', API.player],
      ['PUT', API.player],
      ['GET', API.plan],
    ] as const)
      expect(
        (await call(undefined, method, url, method === 'GET' ? undefined : {})).statusCode,
        `${method} ${url}`,
      ).toBe(401);
  });

  it('are created, listed in order, renamed, edited and deleted by their owner', async () => {
    const ada = await signedInUser(t.ctx);
    const created = await call(ada, 'POST', API.myCategories, { name: '  Morning  ' });
    expect(created.statusCode).toBe(201);
    const category = created.json();
    expect(category).toEqual({ id: expect.any(Number), name: 'Morning', messages: [], share: null });

    const first = await call(ada, 'POST', messagesPath(category.id), { message_text: ' I begin the day calm. ' });
    expect(first.statusCode).toBe(201);
    await call(ada, 'POST', messagesPath(category.id), { message_text: 'I choose one thing at a time.' });
    const listed = (await call(ada, 'GET', API.myCategories)).json();
    expect(listed).toHaveLength(1);
    expect(listed[0].messages.map((m: { message_text: string }) => m.message_text)).toEqual([
      'I begin the day calm.',
      'I choose one thing at a time.',
    ]);

    const messageId = listed[0].messages[0].id;
    const edited = await call(ada, 'PATCH', messagePath(messageId), { message_text: 'I begin the day slowly.' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().messages[0]).toEqual({ id: messageId, message_text: 'I begin the day slowly.' });
    expect((await call(ada, 'PATCH', categoryPath(category.id), { name: 'Mornings' })).json().name).toBe('Mornings');

    expect((await call(ada, 'DELETE', messagePath(messageId))).statusCode).toBe(204);
    expect((await call(ada, 'GET', categoryPath(category.id))).json().messages).toHaveLength(1);
    expect((await call(ada, 'DELETE', categoryPath(category.id))).statusCode).toBe(204);
    expect((await call(ada, 'GET', categoryPath(category.id))).statusCode).toBe(404);
    expect((await call(ada, 'GET', API.myCategories)).json()).toEqual([]);
  });

  it('refuse an edit begun from a text the message no longer has (changed meanwhile elsewhere), changing nothing', async () => {
    const ada = await signedInUser(t.ctx);
    const { id } = (await call(ada, 'POST', API.myCategories, { name: 'Two tabs' })).json();
    const added = (await call(ada, 'POST', messagesPath(id), { message_text: 'I am calm.' })).json();
    const messageId = added.messages[0].id;
    const edit = (message_text: string, previous_text?: string) =>
      call(ada, 'PATCH', messagePath(messageId), { message_text, previous_text });
    const stored = async () => (await call(ada, 'GET', categoryPath(id))).json().messages[0].message_text;

    // Both tabs began from "I am calm."; the first saves.
    expect((await edit('I am peaceful.', 'I am calm.')).statusCode).toBe(200);
    const second = await edit('I am strong.', 'I am calm.');
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ detail: MESSAGE_CHANGED_MESSAGE, code: 'changed_meanwhile' });
    expect(await stored()).toBe('I am peaceful.');
    // Begun from what it reads now, the edit goes through; so does a save sent twice, and one without a
    // previous text (last write wins, as before).
    expect((await edit('I am strong.', 'I am peaceful.')).statusCode).toBe(200);
    expect((await edit('I am strong.', 'I am peaceful.')).statusCode).toBe(200);
    expect((await edit('I am steady.')).statusCode).toBe(200);
    expect(await stored()).toBe('I am steady.');
    // The previous text is compared as the message's text is kept: trimmed.
    expect((await edit('I am here.', '  I am steady. ')).statusCode).toBe(200);
    const blank = await edit('Anything.', '   ');
    expect(blank.json()).toEqual({ previous_text: ['This field may not be blank.'] });
  });

  it('take one of two edits sent at once from the same text, and refuse the other', async () => {
    const ada = await signedInUser(t.ctx);
    const { id } = (await call(ada, 'POST', API.myCategories, { name: 'Race' })).json();
    const messageId = (await call(ada, 'POST', messagesPath(id), { message_text: 'Before.' })).json().messages[0].id;
    const answers = await Promise.all(
      ['From tab A.', 'From tab B.'].map((message_text) =>
        call(ada, 'PATCH', messagePath(messageId), { message_text, previous_text: 'Before.' }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((answer) => answer.statusCode === 200)!.json().messages[0].message_text;
    expect((await call(ada, 'GET', categoryPath(id))).json().messages[0].message_text).toBe(winner);
  });

  it('refuse blank and overlong texts with field errors', async () => {
    const ada = await signedInUser(t.ctx);
    const blank = await call(ada, 'POST', API.myCategories, { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ name: ['This field may not be blank.'] });
    // Accents on nothing, and characters drawn as nothing, show an empty name too.
    for (const name of ['\u0301\u0301', '\u200b\ufeff\u2060', ' \u0308\u200b ']) {
      const shown = await call(ada, 'POST', API.myCategories, { name });
      expect(shown.json(), JSON.stringify(name)).toEqual({ name: ['This field may not be blank.'] });
    }
    expect((await call(ada, 'POST', API.myCategories, { name: 'x'.repeat(81) })).json()).toEqual({
      name: ['Ensure this field has no more than 80 characters.'],
    });
    const { id } = (await call(ada, 'POST', API.myCategories, { name: 'Evening' })).json();
    const long = await call(ada, 'POST', messagesPath(id), { message_text: 'x'.repeat(201) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ message_text: ['Ensure this field has no more than 200 characters.'] });
    const accents = await call(ada, 'POST', messagesPath(id), { message_text: '\u0301\u0301' });
    expect(accents.json()).toEqual({ message_text: ['This field may not be blank.'] });
    expect((await call(ada, 'POST', messagesPath(id), { message_text: 'x'.repeat(200) })).statusCode).toBe(201);
  });

  it("are another person's to see and change only: their ids are not found", async () => {
    const ada = await signedInUser(t.ctx);
    const bob = await signedInUser(t.ctx);
    const category = (await call(ada, 'POST', API.myCategories, { name: 'Private' })).json();
    const withMessage = (await call(ada, 'POST', messagesPath(category.id), { message_text: 'Mine.' })).json();
    const messageId = withMessage.messages[0].id;

    expect((await call(bob, 'GET', API.myCategories)).json()).toEqual([]);
    for (const [method, url, body] of [
      ['GET', categoryPath(category.id), undefined],
      ['PATCH', categoryPath(category.id), { name: 'Taken' }],
      ['DELETE', categoryPath(category.id), undefined],
      ['POST', messagesPath(category.id), { message_text: 'Intruder.' }],
      ['PATCH', messagePath(messageId), { message_text: 'Changed.' }],
      ['DELETE', messagePath(messageId), undefined],
      ['PUT', messagesOrderPath(category.id), { ids: [messageId] }],
    ] as const)
      expect((await call(bob, method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    // Another person's category is not part of one's own list, so no order of it is accepted.
    expect((await call(bob, 'PUT', API.myCategoriesOrder, { ids: [category.id] })).statusCode).toBe(409);
    expect((await call(ada, 'GET', categoryPath(category.id))).json()).toEqual(withMessage);
  });

  it('are put in a new order by their owner, a whole list at a time', async () => {
    const ada = await signedInUser(t.ctx);
    const names = ['Morning', 'Work', 'Evening'];
    const ids: number[] = [];
    for (const name of names) ids.push((await call(ada, 'POST', API.myCategories, { name })).json().id);
    const [morning, work, evening] = ids as [number, number, number];

    const reordered = await call(ada, 'PUT', API.myCategoriesOrder, { ids: [evening, morning, work] });
    expect(reordered.statusCode).toBe(200);
    expect(reordered.json().map((c: { name: string }) => c.name)).toEqual(['Evening', 'Morning', 'Work']);
    expect((await call(ada, 'GET', API.myCategories)).json().map((c: { id: number }) => c.id)).toEqual([
      evening,
      morning,
      work,
    ]);
    // A new category still goes to the end of the list as it now is.
    const night = (await call(ada, 'POST', API.myCategories, { name: 'Night' })).json().id;
    expect((await call(ada, 'GET', API.myCategories)).json().at(-1).id).toBe(night);

    for (const text of ['I wake slowly.', 'I drink water.', 'I step outside.'])
      await call(ada, 'POST', messagesPath(morning), { message_text: text });
    const messageIds = (await call(ada, 'GET', categoryPath(morning))).json().messages.map((m: { id: number }) => m.id);
    const moved = await call(ada, 'PUT', messagesOrderPath(morning), { ids: [...messageIds].reverse() });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().messages.map((m: { message_text: string }) => m.message_text)).toEqual([
      'I step outside.',
      'I drink water.',
      'I wake slowly.',
    ]);

    // An order that leaves one out, names one twice or names a stranger changes nothing: one that is no order is
    // refused as such, one that is not the list as it is now (read before a row was added elsewhere) says so.
    for (const [url, body, status] of [
      [API.myCategoriesOrder, { ids: [evening, morning] }, 409],
      [API.myCategoriesOrder, { ids: [evening, evening, morning, work, night] }, 400],
      [API.myCategoriesOrder, { ids: 'first' }, 400],
      [messagesOrderPath(morning), { ids: [messageIds[0], messageIds[1], 2_000_000_000] }, 409],
      [messagesOrderPath(work), { ids: messageIds }, 409],
    ] as const)
      expect((await call(ada, 'PUT', url, body)).statusCode, JSON.stringify(body)).toBe(status);
    expect((await call(ada, 'PUT', API.myCategoriesOrder, { ids: [evening, morning] })).json()).toEqual({
      detail: LIST_CHANGED_MESSAGE,
      code: 'list_changed',
    });
    // A number past the database's range is told so once, as DRF tells it (not also past JavaScript's).
    const huge = await call(ada, 'PUT', API.myCategoriesOrder, { ids: [1e300, evening, morning, work] });
    expect([huge.statusCode, huge.json()]).toEqual([
      400,
      { ids: ['Ensure this value is less than or equal to 2147483647.'] },
    ]);
    // A list longer than any plan keeps is refused by its length before an id is read.
    for (const [url, most] of [
      [API.myCategoriesOrder, PLAN_LIMITS.pro.ownCategories],
      [messagesOrderPath(morning), PLAN_LIMITS.pro.ownMessages],
    ] as const) {
      const long = await call(ada, 'PUT', url, { ids: Array.from({ length: most + 1 }, () => 'x') });
      expect([long.statusCode, long.json()]).toEqual([
        400,
        { ids: [`Ensure this field has no more than ${most} elements.`] },
      ]);
    }
    const left = (await call(ada, 'GET', API.myCategories)).json();
    expect(left.map((c: { id: number }) => c.id)).toEqual([evening, morning, work, night]);
    expect(left[1].messages.map((m: { id: number }) => m.id)).toEqual([...messageIds].reverse());
  });

  it('are put in a new order as long as the longest list a plan keeps, every one where it was put', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const categoryId = await ownMessagesUpTo(ada, PLAN_LIMITS.pro.ownMessages);
    const ids: number[] = (await call(ada, 'GET', categoryPath(categoryId)))
      .json()
      .messages.map((m: { id: number }) => m.id);
    // Every third one to the front, the others behind them backwards: not a plain reversal.
    const order = [...ids.filter((_, i) => i % 3 === 0), ...ids.filter((_, i) => i % 3 !== 0).reverse()];
    const moved = await call(ada, 'PUT', messagesOrderPath(categoryId), { ids: order });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().messages.map((m: { id: number }) => m.id)).toEqual(order);
    expect((await call(ada, 'GET', categoryPath(categoryId))).json().messages.map((m: { id: number }) => m.id)).toEqual(
      order,
    );
  });

  it('stop at the plan’s limit, say which plan keeps more, and stay editable after a downgrade', async () => {
    const ada = await signedInUser(t.ctx);
    const limit = PLAN_LIMITS.basic.ownMessages;
    const categoryId = await ownMessagesUpTo(ada, limit);
    const refused = await call(ada, 'POST', messagesPath(categoryId), { message_text: 'One more.' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      detail: `Your plan keeps up to ${limit} messages of your own. The Intermediate plan keeps more.`,
      code: 'plan_limit',
      required_plan: 'intermediate',
    });

    await setPlan(ada, 'intermediate');
    expect((await call(ada, 'POST', messagesPath(categoryId), { message_text: 'One more.' })).statusCode).toBe(201);

    await setPlan(ada, 'basic');
    const category = (await call(ada, 'GET', categoryPath(categoryId))).json();
    expect(category.messages).toHaveLength(limit + 1);
    expect((await call(ada, 'POST', messagesPath(categoryId), { message_text: 'Another.' })).statusCode).toBe(403);
    const last = category.messages.at(-1).id;
    expect((await call(ada, 'PATCH', messagePath(last), { message_text: 'Still mine.' })).statusCode).toBe(200);
    expect((await call(ada, 'DELETE', messagePath(last))).statusCode).toBe(204);
  });
});

describe('own categories', () => {
  // Names of one person's are unique (whatever their case): each batch names its own.
  let made = 0;
  const emptyCategories = (user: { id: number }, n: number) =>
    t.database.db
      .insert(ownCategories)
      .values(Array.from({ length: n }, () => ({ userId: user.id, name: `Empty ${made++}` })));

  it('are named once per person whatever the case, on create and rename, as the library’s are', async () => {
    const bob = await signedInUser(t.ctx);
    const created = await call(bob, 'POST', API.myCategories, { name: 'BobCat' });
    expect(created.statusCode).toBe(201);
    const refusal = { name: ['You already have a category named “\u2068BobCat\u2069”.'] };
    for (const name of ['bobcat', '  BOBCAT  ', 'BobCat']) {
      const again = await call(bob, 'POST', API.myCategories, { name });
      expect([again.statusCode, again.json()], name).toEqual([400, refusal]);
    }
    // Letters beyond ASCII too, as PostgreSQL's lower() compares them.
    expect((await call(bob, 'POST', API.myCategories, { name: 'Äpfel' })).statusCode).toBe(201);
    expect((await call(bob, 'POST', API.myCategories, { name: 'äpfel' })).json()).toEqual({
      name: ['You already have a category named “\u2068Äpfel\u2069”.'],
    });
    const other = (await call(bob, 'POST', API.myCategories, { name: 'Evenings' })).json();
    const renamed = await call(bob, 'PATCH', categoryPath(other.id), { name: ' bobCAT ' });
    expect([renamed.statusCode, renamed.json()]).toEqual([400, refusal]);
    // A category may take another case of its own name.
    const recased = await call(bob, 'PATCH', categoryPath(created.json().id), { name: 'Bobcat' });
    expect([recased.statusCode, recased.json().name]).toEqual([200, 'Bobcat']);
    expect((await call(bob, 'GET', API.myCategories)).json().map((c: { name: string }) => c.name)).toEqual([
      'Bobcat',
      'Äpfel',
      'Evenings',
    ]);
    // Another person's names are theirs.
    const ada = await signedInUser(t.ctx);
    expect((await call(ada, 'POST', API.myCategories, { name: 'bobcat' })).statusCode).toBe(201);
    // Written at once, one of the two is refused by the database: never both kept, never a 500.
    const both = await Promise.all(['Twins', 'TWINS'].map((name) => call(ada, 'POST', API.myCategories, { name })));
    expect(both.map((res) => res.statusCode).sort()).toEqual([201, 400]);
    expect(
      (await call(ada, 'GET', API.myCategories)).json().filter((c: { name: string }) => /^twins$/i.test(c.name)),
    ).toHaveLength(1);
  });

  it('are unique as they are read: a character drawn as nothing, at the ends or inside, makes no other name', async () => {
    const bob = await signedInUser(t.ctx);
    expect((await call(bob, 'POST', API.myCategories, { name: 'Calm' })).statusCode).toBe(201);
    const refusal = { name: ['You already have a category named “\u2068Calm\u2069”.'] };
    // Zero-width space, joiners, word joiner, byte-order mark, a direction mark: at the ends they are dropped,
    // inside they are not compared.
    for (const name of [
      '\u200bCalm',
      '\u200dcalm\u200c',
      '\u2060CALM\ufeff',
      'Ca\u200blm',
      'C\u200dalm',
      'Calm\u200e',
    ]) {
      const again = await call(bob, 'POST', API.myCategories, { name });
      expect([again.statusCode, again.json()], JSON.stringify(name)).toEqual([400, refusal]);
    }
    const created = await call(bob, 'POST', API.myCategories, { name: '\u200b\ufeffEvenings\u2060 ' });
    expect([created.statusCode, created.json().name]).toEqual([201, 'Evenings']);
    // An emoji's joiners and its variation selector stay, at the end too.
    for (const name of ['👨‍👩‍👧', 'Love ❤️', '🏴󠁧󠁢󠁳󠁣󠁴󠁿'])
      expect((await call(bob, 'POST', API.myCategories, { name })).json().name).toBe(name);
    // A direction override inside would reorder what a reader sees: refused, and nothing kept.
    const reordered = await call(bob, 'POST', API.myCategories, { name: 'Sleep \u202eexe.txt' });
    expect([reordered.statusCode, reordered.json()]).toEqual([400, { name: [DIRECTION_CONTROL_REFUSED] }]);
    const category = (await call(bob, 'GET', API.myCategories)).json().find((c: { name: string }) => c.name === 'Calm');
    for (const message_text of ['I am \u2067calm\u2069.', 'I rest\u202d well.']) {
      const refused = await call(bob, 'POST', messagesPath(category.id), { message_text });
      expect([refused.statusCode, refused.json()]).toEqual([400, { message_text: [DIRECTION_CONTROL_REFUSED] }]);
    }
    // A control character inside flashes as a box: refused too (a bell, an escape, a next-line).
    for (const message_text of ['I am\u0007 calm.', 'I rest \u001b[1mwell.', 'I rest\u0085well.']) {
      const refused = await call(bob, 'POST', messagesPath(category.id), { message_text });
      expect([refused.statusCode, refused.json()]).toEqual([400, { message_text: [CONTROL_CHARACTER_REFUSED] }]);
    }
    const added = await call(bob, 'POST', messagesPath(category.id), { message_text: '\u200bI rest well.\u200b' });
    expect(added.json().messages.map((m: { message_text: string }) => m.message_text)).toEqual(['I rest well.']);
    expect((await call(bob, 'GET', API.myCategories)).json().map((c: { name: string }) => c.name)).toEqual([
      'Calm',
      'Evenings',
      '👨‍👩‍👧',
      'Love ❤️',
      '🏴󠁧󠁢󠁳󠁣󠁴󠁿',
    ]);
  });

  it('are as many on Basic as its messages (200), and 500 on a paid plan, where no plan keeps more', async () => {
    const ada = await signedInUser(t.ctx);
    await emptyCategories(ada, 199);
    expect((await call(ada, 'POST', API.myCategories, { name: 'The 200th' })).statusCode).toBe(201);
    const basic = await call(ada, 'POST', API.myCategories, { name: 'One more' });
    expect(basic.statusCode).toBe(403);
    expect(basic.json()).toEqual({
      detail: 'Your plan keeps up to 200 categories of your own. The Intermediate plan keeps more.',
      code: 'plan_limit',
      required_plan: 'intermediate',
    });

    await setPlan(ada, 'intermediate');
    await emptyCategories(ada, 299);
    expect((await call(ada, 'POST', API.myCategories, { name: 'The 500th' })).statusCode).toBe(201);
    for (const plan of ['intermediate', 'pro'] as const) {
      await setPlan(ada, plan);
      const paid = await call(ada, 'POST', API.myCategories, { name: 'One more' });
      expect(paid.statusCode, plan).toBe(403);
      expect(paid.json()).toEqual({
        detail: 'Your plan keeps up to 500 categories of your own. Delete one to add another.',
        code: 'plan_limit',
      });
    }
  });
});

describe('GET /api/user/plan/', () => {
  it('tells what the plan includes, its limits and their use', async () => {
    const ada = await signedInUser(t.ctx);
    await ownMessagesUpTo(ada, 3);
    const basic = (await call(ada, 'GET', API.plan)).json();
    expect(basic).toMatchObject({
      plan: 'basic',
      limits: PLAN_LIMITS.basic,
      usage: { ownCategories: 1, ownMessages: 3, savedSubliminals: 0 },
    });
    expect(Object.keys(basic.limits)).toEqual(['ownCategories', 'ownMessages', 'savedSubliminals']);
    expect(basic.features).toMatchObject({
      ownMessages: true,
      cloudPlayer: true,
      savedSubliminals: false,
      exportMessages: false,
    });
    await setPlan(ada, 'pro');
    const pro = (await call(ada, 'GET', API.plan)).json();
    expect(pro.plan).toBe('pro');
    expect(pro.limits).toEqual({ ownCategories: 500, ownMessages: 10_000, savedSubliminals: 2_000 });
    expect(Object.values(pro.features).every(Boolean)).toBe(true);
  });
});

describe('the player in the cloud', () => {
  const settings = { flashSpeed: 150, displayInterval: 3000, messageColor: '#FFAA00', fontSize: 32, theme: 'classic' };
  const playlist = [
    { message_text: 'I am calm.', source: 'library', message_id: 3 },
    { message_text: 'I begin the day slowly.', source: 'own', message_id: 9 },
  ];

  it('starts from the defaults, and what one device saves another reads; the last save wins', async () => {
    const ada = await signedInUser(t.ctx);
    expect((await call(ada, 'GET', API.player)).json()).toEqual({
      playlist: [],
      settings: { flashSpeed: 100, displayInterval: 2000, messageColor: '#00DC82', fontSize: 20, theme: 'classic' },
      updated_at: null,
    });
    const saved = await call(ada, 'PUT', API.player, { playlist, settings });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ playlist, settings, updated_at: expect.any(String) });

    const otherDevice = await signedInUser(t.ctx, { email: `other-${ada.email}` });
    expect((await call(otherDevice, 'GET', API.player)).json().playlist).toEqual([]);

    await call(ada, 'PUT', API.player, { playlist: playlist.slice(1), settings: { ...settings, fontSize: 40 } });
    const read = (await call(ada, 'GET', API.player)).json();
    expect(read.playlist).toEqual(playlist.slice(1));
    expect(read.settings.fontSize).toBe(40);
    expect(Date.parse(read.updated_at)).toBeGreaterThanOrEqual(Date.parse(saved.json().updated_at));
  });

  it("keeps a page's later save when its older one lands last, and lets another page's save win", async () => {
    const ada = await signedInUser(t.ctx);
    const page = '0b7f6a52-3c1e-4d7a-9e0f-2a5b8c4d6e11';
    const newer = await call(ada, 'PUT', API.player, {
      playlist: playlist.slice(1),
      settings,
      page_id: page,
      save_number: 2,
    });
    expect(newer.statusCode).toBe(200);
    // The page's first save, sent before the second, lands after it: it is not written, and says what is kept.
    const older = await call(ada, 'PUT', API.player, { playlist, settings, page_id: page, save_number: 1 });
    expect(older.statusCode).toBe(200);
    expect(older.json()).toEqual({ playlist: playlist.slice(1), settings, updated_at: newer.json().updated_at });
    expect((await call(ada, 'GET', API.player)).json()).toEqual(older.json());

    // Another page (a tab, a device) saves over it, whatever its numbers, and so does a call without them.
    const otherPage = { page_id: '5d2c9b1a-7e4f-4a3b-8c6d-1f0e9a8b7c6d', save_number: 1 };
    expect((await call(ada, 'PUT', API.player, { playlist, settings, ...otherPage })).json().playlist).toEqual(
      playlist,
    );
    await call(ada, 'PUT', API.player, { playlist: [], settings });
    expect((await call(ada, 'GET', API.player)).json().playlist).toEqual([]);

    for (const [change, field] of [
      [{ page_id: 'not-a-uuid', save_number: 1 }, 'page_id'],
      [{ page_id: page, save_number: 0 }, 'save_number'],
      [{ page_id: page, save_number: 1.5 }, 'save_number'],
    ] as const) {
      const refused = await call(ada, 'PUT', API.player, { playlist, settings, ...change });
      expect(refused.statusCode, JSON.stringify(change)).toBe(400);
      expect(Object.keys(refused.json())).toContain(field);
    }
  });

  it('refuses settings outside their limits and malformed playlists, and keeps what was saved', async () => {
    const ada = await signedInUser(t.ctx);
    await call(ada, 'PUT', API.player, { playlist, settings });
    for (const [change, field] of [
      [{ settings: { ...settings, flashSpeed: 10 } }, 'settings'],
      [{ settings: { ...settings, flashSpeed: 5001 } }, 'settings'],
      [{ settings: { ...settings, displayInterval: 600_001 } }, 'settings'],
      [{ settings: { ...settings, fontSize: 71 } }, 'settings'],
      [{ settings: { ...settings, messageColor: 'red' } }, 'settings'],
      [{ playlist: [{ ...playlist[0], source: 'elsewhere' }] }, 'playlist'],
      [{ playlist: [{ ...playlist[0], message_text: '' }] }, 'playlist'],
    ] as const) {
      const refused = await call(ada, 'PUT', API.player, Object.assign({ playlist, settings }, change));
      expect(refused.statusCode, JSON.stringify(change)).toBe(400);
      expect(Object.keys(refused.json())).toContain(field);
    }
    expect((await call(ada, 'GET', API.player)).json()).toMatchObject({ playlist, settings });
  });

  it("takes a playlist item's message_id as DRF's IntegerField does: a JSON integer or decimal digits", async () => {
    const ada = await signedInUser(t.ctx);
    const withId = (message_id: unknown) => ({ playlist: [{ ...playlist[0], message_id }], settings });
    for (const id of [3, '3']) {
      expect((await call(ada, 'PUT', API.player, withId(id))).statusCode, JSON.stringify(id)).toBe(200);
      expect((await call(ada, 'GET', API.player)).json().playlist[0].message_id).toBe(3);
    }
    for (const id of ['1e0', '1.0', ' 1', '1 ', '+1', '0x1', '', true, 1.5, [1], { id: 1 }]) {
      const refused = await call(ada, 'PUT', API.player, withId(id));
      expect([refused.statusCode, refused.json()], JSON.stringify(id)).toEqual([
        400,
        { playlist: ['A valid integer is required.'] },
      ]);
    }
    const tooBig = await call(ada, 'PUT', API.player, withId('2147483648'));
    expect([tooBig.statusCode, tooBig.json()]).toEqual([
      400,
      { playlist: ['Ensure this value is less than or equal to 2147483647.'] },
    ]);
    const huge = await call(ada, 'PUT', API.player, withId(1e20));
    expect([huge.statusCode, huge.json()]).toEqual([
      400,
      { playlist: ['Ensure this value is less than or equal to 2147483647.'] },
    ]);
    const zero = await call(ada, 'PUT', API.player, withId(0));
    expect([zero.statusCode, zero.json()]).toEqual([
      400,
      { playlist: ['Ensure this value is greater than or equal to 1.'] },
    ]);
  });

  it('refuses a setting between its steps, in Django’s words, and keeps what was saved', async () => {
    const ada = await signedInUser(t.ctx);
    await call(ada, 'PUT', API.player, { playlist, settings });
    for (const [change, step] of [
      [{ flashSpeed: 55 }, 10],
      [{ displayInterval: 1250 }, 500],
      [{ fontSize: 21 }, 2],
    ] as const) {
      const refused = await call(ada, 'PUT', API.player, { playlist, settings: { ...settings, ...change } });
      expect(refused.statusCode, JSON.stringify(change)).toBe(400);
      expect(refused.json()).toEqual({
        settings: { [Object.keys(change)[0]!]: [`Ensure this value is a multiple of step size ${step}.`] },
      });
    }
    expect((await call(ada, 'GET', API.player)).json()).toMatchObject({ playlist, settings });
  });

  it('reads settings stored between steps (before steps were checked) at the nearest step, which saves again', async () => {
    const ada = await signedInUser(t.ctx);
    await t.database.db.insert(playerStates).values({
      userId: ada.id,
      playlist,
      settings: { ...settings, flashSpeed: 55, displayInterval: 1250, fontSize: 21 },
    });
    const read = (await call(ada, 'GET', API.player)).json();
    expect(read).toMatchObject({
      playlist,
      settings: { ...settings, flashSpeed: 60, displayInterval: 1500, fontSize: 22 },
    });
    const saved = await call(ada, 'PUT', API.player, { playlist: read.playlist, settings: read.settings });
    expect(saved.statusCode).toBe(200);
  });

  it('keeps the themes of higher plans for them, a custom theme too, and refuses unknown themes', async () => {
    const ada = await signedInUser(t.ctx);
    for (const theme of ['classic', 'paper', 'midnight'])
      expect((await call(ada, 'PUT', API.player, { playlist, settings: { ...settings, theme } })).statusCode).toBe(200);
    const ocean = await call(ada, 'PUT', API.player, { playlist, settings: { ...settings, theme: 'ocean' } });
    expect(ocean.statusCode).toBe(403);
    expect(ocean.json()).toEqual({
      detail: 'The Ocean theme is part of the Intermediate plan.',
      code: 'plan_required',
      required_plan: 'intermediate',
    });
    const customTheme = { background: '#101010', font: 'serif' };
    const custom = await call(ada, 'PUT', API.player, {
      playlist,
      settings: { ...settings, theme: 'custom', customTheme },
    });
    expect(custom.statusCode).toBe(403);
    expect(custom.json().detail).toBe('Themes of your own are part of the Intermediate plan.');
    const unknown = await call(ada, 'PUT', API.player, { playlist, settings: { ...settings, theme: 'neon' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ settings: { theme: ['Choose one of the themes.'] } });
    expect((await call(ada, 'GET', API.player)).json().settings.theme).toBe('midnight');

    await setPlan(ada, 'intermediate');
    const withCustom = { ...settings, theme: 'custom', customTheme };
    expect((await call(ada, 'PUT', API.player, { playlist, settings: withCustom })).statusCode).toBe(200);
    expect((await call(ada, 'GET', API.player)).json().settings).toEqual(withCustom);

    // After a downgrade the kept theme stays as it is (the playlist still saves); a change to another
    // theme of the higher plan does not.
    await setPlan(ada, 'basic');
    expect((await call(ada, 'PUT', API.player, { playlist: [], settings: withCustom })).statusCode).toBe(200);
    const otherCustom = { ...withCustom, customTheme: { background: '#202020', font: 'serif' } };
    expect((await call(ada, 'PUT', API.player, { playlist: [], settings: otherCustom })).statusCode).toBe(403);
    expect(
      (await call(ada, 'PUT', API.player, { playlist: [], settings: { ...settings, theme: 'forest' } })).statusCode,
    ).toBe(403);
    expect((await call(ada, 'PUT', API.player, { playlist: [], settings })).statusCode).toBe(200);
  });
});
