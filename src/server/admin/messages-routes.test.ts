import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import {
  changedMeanwhileMessage,
  CONTROL_CHARACTER_REFUSED,
  DIRECTION_CONTROL_REFUSED,
  LIBRARY_LIMITS,
  LIST_CHANGED_MESSAGE,
  MESSAGE_CHANGED_MESSAGE,
  MESSAGE_TEXT_MAX,
  MESSAGES_IMPORT_LIMITS,
} from '@shared/contract';
import { messageCategories, messages } from '../db/schema';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';

describe('admin message categories API', () => {
  let t: TestApp;
  let staff: SignedInUser;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: staff.headers, ...(payload && { payload }) });

  beforeAll(async () => {
    t = await createTestApp();
    staff = await signedInUser(t.ctx, { isStaff: true });
  });
  afterAll(() => t.close());

  it('creates, renames, fills, reorders and deletes categories and messages', async () => {
    const calm = await call('POST', '/api/admin/message-categories/', { name: '  Calm ' });
    expect(calm.statusCode).toBe(201);
    expect(calm.json()).toMatchObject({ name: 'Calm', position: 0, messages: [] });
    const focus = (await call('POST', '/api/admin/message-categories/', { name: 'Focus' })).json();
    expect(focus.position).toBe(1);
    const calmId = calm.json().id as number;

    const renamed = await call('PATCH', `/api/admin/message-categories/${calmId}/`, { name: 'Calmness' });
    expect(renamed.json().name).toBe('Calmness');

    await call('POST', `/api/admin/message-categories/${calmId}/messages/`, { message_text: 'I am calm.' });
    const two = await call('POST', `/api/admin/message-categories/${calmId}/messages/`, {
      message_text: 'I breathe slowly.',
    });
    expect(two.statusCode).toBe(201);
    const [first, second] = two.json().messages as Array<{ id: number }>;
    const reordered = await call('PUT', `/api/admin/message-categories/${calmId}/messages/order/`, {
      ids: [second!.id, first!.id],
    });
    expect(reordered.json().messages.map((m: { message_text: string }) => m.message_text)).toEqual([
      'I breathe slowly.',
      'I am calm.',
    ]);

    const edited = await call('PATCH', `/api/admin/messages/${first!.id}/`, { message_text: 'I am at ease.' });
    expect(edited.json().messages[1].message_text).toBe('I am at ease.');
    expect((await call('DELETE', `/api/admin/messages/${second!.id}/`)).statusCode).toBe(204);

    const order = await call('PUT', '/api/admin/message-categories/order/', { ids: [focus.id, calmId] });
    expect(order.json().map((c: { name: string }) => c.name)).toEqual(['Focus', 'Calmness']);

    expect((await call('DELETE', `/api/admin/message-categories/${focus.id}/`)).statusCode).toBe(204);
    const list = (await call('GET', '/api/admin/message-categories/')).json();
    expect(list).toEqual([
      {
        id: calmId,
        name: 'Calmness',
        position: 1,
        messages: [{ id: first!.id, message_text: 'I am at ease.', position: 1 }],
      },
    ]);
  });

  it('refuses an edit begun from a text the message no longer has (another tab, another staff member), changing nothing', async () => {
    const { id } = (await call('POST', '/api/admin/message-categories/', { name: 'Two tabs' })).json();
    const added = (
      await call('POST', `/api/admin/message-categories/${id}/messages/`, { message_text: 'I am calm.' })
    ).json();
    const messageId = added.messages[0].id;
    const edit = (message_text: string, previous_text?: string) =>
      call('PATCH', `/api/admin/messages/${messageId}/`, { message_text, previous_text });
    const stored = async () =>
      (await call('GET', '/api/admin/message-categories/')).json().find((c: { id: number }) => c.id === id).messages[0]
        .message_text;

    // Two edits sent at once from the same text: one is taken, the other refused.
    const both = await Promise.all([edit('I am peaceful.', 'I am calm.'), edit('I am strong.', 'I am calm.')]);
    expect(both.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const refused = both.find((answer) => answer.statusCode === 409)!;
    expect(refused.json()).toEqual({ detail: MESSAGE_CHANGED_MESSAGE, code: 'changed_meanwhile' });
    const kept = both.find((answer) => answer.statusCode === 200)!.json().messages[0].message_text;
    expect(await stored()).toBe(kept);
    // Begun from what it reads now, the edit goes through; so does a save sent twice, and one without a previous
    // text (the last write wins, as for a client that sends none).
    expect((await edit('I am here.', kept)).statusCode).toBe(200);
    expect((await edit('I am here.', kept)).statusCode).toBe(200);
    expect((await edit('I am steady.')).statusCode).toBe(200);
    expect(await stored()).toBe('I am steady.');
    expect((await edit('Anything.', '   ')).json()).toEqual({ previous_text: ['This field may not be blank.'] });
    expect(
      (await call('PATCH', '/api/admin/messages/999999/', { message_text: 'x', previous_text: 'y' })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/api/admin/message-categories/${id}/`)).statusCode).toBe(204);
  });

  it('refuses a rename begun from a name the category no longer has (another tab, another staff member), changing nothing', async () => {
    const { id } = (await call('POST', '/api/admin/message-categories/', { name: 'Evening' })).json();
    const rename = (name: string, previous_name?: string) =>
      call('PATCH', `/api/admin/message-categories/${id}/`, { name, previous_name });
    const stored = async () =>
      (await call('GET', '/api/admin/message-categories/')).json().find((c: { id: number }) => c.id === id).name;

    // Two renames sent at once from the same name: one is taken, the other refused in the shared words.
    const both = await Promise.all([rename('Night', 'Evening'), rename('Dusk', 'Evening')]);
    expect(both.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((answer) => answer.statusCode === 409)!.json()).toEqual({
      detail: changedMeanwhileMessage('name'),
      code: 'changed_meanwhile',
    });
    const kept = both.find((answer) => answer.statusCode === 200)!.json().name;
    expect(await stored()).toBe(kept);
    // Begun from what it reads now it goes through; so does a rename sent twice, and one naming no previous name.
    expect((await rename('Late evening', kept)).statusCode).toBe(200);
    expect((await rename('Late evening', kept)).statusCode).toBe(200);
    expect((await rename('Sunset')).statusCode).toBe(200);
    expect(await stored()).toBe('Sunset');
    expect((await rename('Anything', '  ')).json()).toEqual({ previous_name: ['This field may not be blank.'] });
    expect(
      (await call('PATCH', '/api/admin/message-categories/999999/', { name: 'x', previous_name: 'y' })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/api/admin/message-categories/${id}/`)).statusCode).toBe(204);
  });

  it('refuses a control or direction character inside a name or a message, and drops invisible ones at the ends', async () => {
    const path = '/api/admin/message-categories/';
    const { id } = (await call('POST', path, { name: 'Typed' })).json();
    const messageId = (await call('POST', `${path}${id}/messages/`, { message_text: 'I am calm.' })).json().messages[0]
      .id;
    const [bell, override] = ['A\u0007B', 'Sleep \u202etxt.exe'];
    expect((await call('POST', path, { name: bell })).json()).toEqual({ name: [CONTROL_CHARACTER_REFUSED] });
    expect((await call('PATCH', `${path}${id}/`, { name: override })).json()).toEqual({
      name: [DIRECTION_CONTROL_REFUSED],
    });
    expect((await call('POST', `${path}${id}/messages/`, { message_text: bell })).json()).toEqual({
      message_text: [CONTROL_CHARACTER_REFUSED],
    });
    expect((await call('PATCH', `/api/admin/messages/${messageId}/`, { message_text: override })).json()).toEqual({
      message_text: [DIRECTION_CONTROL_REFUSED],
    });
    const imported = await call('POST', `${path}import/`, { categories: [{ name: 'Typed', messages: [bell] }] });
    expect(imported.statusCode).toBe(400);
    // "\u200bTyped" would be a second category that reads "Typed".
    expect((await call('POST', path, { name: '\u200bTyped\u200b' })).json()).toEqual({
      name: ['message category with this name already exists.'],
    });
    // Nor inside: a word joiner makes no second "Typed", in a create, a rename or an import, which takes it for "Typed".
    const { id: otherId } = (await call('POST', path, { name: 'Other' })).json();
    for (const [method, url] of [
      ['POST', path],
      ['PATCH', `${path}${otherId}/`],
    ] as const)
      expect((await call(method, url, { name: 'TY\u2060PED' })).json()).toEqual({
        name: ['message category with this name already exists.'],
      });
    expect((await call('DELETE', `${path}${otherId}/`)).statusCode).toBe(204);
    const lookAlike = await call('POST', `${path}import/`, {
      categories: [{ name: 'Ty\u2060ped', messages: ['I am calm.'] }],
    });
    expect(lookAlike.json()).toEqual({ categories_created: 0, categories_updated: 1, messages: 1 });
    const [typed] = (await call('GET', path)).json().filter((c: { id: number }) => c.id === id);
    expect(typed.name).toBe('Typed');
    expect(typed.messages.map((m: { message_text: string }) => m.message_text)).toEqual(['I am calm.']);
    expect((await call('DELETE', `${path}${id}/`)).statusCode).toBe(204);
  });

  it('rejects blank and duplicate names, blank messages, bad orders and unknown ids', async () => {
    const blank = await call('POST', '/api/admin/message-categories/', { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ name: ['This field may not be blank.'] });
    const long = await call('POST', '/api/admin/message-categories/', { name: 'x'.repeat(101) });
    expect(long.json()).toEqual({ name: ['Ensure this field has no more than 100 characters.'] });
    await call('POST', '/api/admin/message-categories/', { name: 'Sleep' });
    const duplicate = await call('POST', '/api/admin/message-categories/', { name: 'Sleep' });
    expect(duplicate.json()).toEqual({ name: ['message category with this name already exists.'] });
    const categories = (await call('GET', '/api/admin/message-categories/')).json() as Array<{
      id: number;
      name: string;
    }>;
    const sleep = categories.find((c) => c.name === 'Sleep')!;
    const renameClash = await call('PATCH', `/api/admin/message-categories/${sleep.id}/`, { name: 'Calmness' });
    expect(renameClash.statusCode).toBe(400);
    const emptyMessage = await call('POST', `/api/admin/message-categories/${sleep.id}/messages/`, {
      message_text: '',
    });
    expect(emptyMessage.json()).toEqual({ message_text: ['This field may not be blank.'] });
    // An order from a list read before a category was added (another tab): refused, saying so, and nothing moves.
    const partial = await call('PUT', '/api/admin/message-categories/order/', { ids: [sleep.id] });
    expect([partial.statusCode, partial.json()]).toEqual([409, { detail: LIST_CHANGED_MESSAGE, code: 'list_changed' }]);
    const twice = await call('PUT', '/api/admin/message-categories/order/', { ids: [sleep.id, sleep.id] });
    expect(twice.statusCode).toBe(400);
    // Each problem of the list is said once, with the bound an id has.
    const bad = await call('PUT', '/api/admin/message-categories/order/', { ids: [0, -1, 'x', 'y', sleep.id] });
    expect(bad.json()).toEqual({
      ids: ['Ensure this value is greater than or equal to 1.', 'A valid integer is required.'],
    });
    expect((await call('PATCH', '/api/admin/message-categories/99999/', { name: 'Nope' })).statusCode).toBe(404);
    expect((await call('DELETE', '/api/admin/messages/99999/')).statusCode).toBe(404);
    expect(
      (await call('POST', '/api/admin/message-categories/99999/messages/', { message_text: 'Hi' })).statusCode,
    ).toBe(404);
  });

  it('refuses an order longer than its list can be before reading an id, and a category or message past the library’s most', async () => {
    // The length is told before any id is read: 501 ids that would each be refused are one error.
    const ids = (n: number) => Array.from({ length: n }, () => 0);
    const categoriesOrder = await call('PUT', '/api/admin/message-categories/order/', {
      ids: ids(LIBRARY_LIMITS.categories + 1),
    });
    expect([categoriesOrder.statusCode, categoriesOrder.json()]).toEqual([
      400,
      { ids: ['Ensure this field has no more than 500 elements.'] },
    ]);
    const held = (await call('POST', '/api/admin/message-categories/', { name: 'Holds the most' })).json();
    const messagesOrder = await call('PUT', `/api/admin/message-categories/${held.id}/messages/order/`, {
      ids: ids(LIBRARY_LIMITS.messagesPerCategory + 1),
    });
    expect([messagesOrder.statusCode, messagesOrder.json()]).toEqual([
      400,
      { ids: ['Ensure this field has no more than 1000 elements.'] },
    ]);

    // A category filled to the most a playlist takes takes no other message, and is reordered whole.
    await t.database.db.insert(messages).values(
      Array.from({ length: LIBRARY_LIMITS.messagesPerCategory }, (_, i) => ({
        categoryId: held.id,
        messageText: `I hold ${i}.`,
        position: i,
      })),
    );
    const past = await call('POST', `/api/admin/message-categories/${held.id}/messages/`, {
      message_text: 'One more.',
    });
    expect([past.statusCode, past.json()]).toEqual([
      400,
      {
        non_field_errors: [
          'This category already holds 1,000 messages, the most a playlist takes. Start another category.',
        ],
      },
    ]);
    const heldIds = (await call('GET', '/api/admin/message-categories/'))
      .json()
      .find((c: { id: number }) => c.id === held.id)
      .messages.map((m: { id: number }) => m.id) as number[];
    const whole = await call('PUT', `/api/admin/message-categories/${held.id}/messages/order/`, {
      ids: [...heldIds].reverse(),
    });
    expect(whole.statusCode).toBe(200);
    expect(whole.json().messages).toHaveLength(LIBRARY_LIMITS.messagesPerCategory);

    // A library of 500 categories takes no other one, by hand or from a file, and keeps what it has.
    const before = (await call('GET', '/api/admin/message-categories/')).json() as Array<{ id: number }>;
    const room = LIBRARY_LIMITS.categories - before.length;
    const filling = await t.database.db
      .insert(messageCategories)
      .values(Array.from({ length: room }, (_, i) => ({ name: `Filler ${i}`, position: 1000 + i })))
      .returning({ id: messageCategories.id });
    try {
      const another = await call('POST', '/api/admin/message-categories/', { name: 'One too many' });
      expect([another.statusCode, another.json()]).toEqual([
        400,
        { non_field_errors: ['The library already holds 500 categories, the most it may hold. Delete one first.'] },
      ]);
      const fromFile = await call('POST', '/api/admin/message-categories/import/', {
        categories: [
          { name: 'Filler 0', messages: ['I am replaced.'] },
          { name: 'New one', messages: ['I would be the 501st.'] },
        ],
      });
      expect([fromFile.statusCode, fromFile.json()]).toEqual([
        400,
        { categories: ['The library may hold at most 500 categories: this file would make it 501.'] },
      ]);
      const after = (await call('GET', '/api/admin/message-categories/')).json() as Array<{
        id: number;
        name: string;
        messages: unknown[];
      }>;
      expect(after).toHaveLength(LIBRARY_LIMITS.categories);
      expect(after.find((c) => c.name === 'Filler 0')?.messages).toEqual([]);
      // Taken whole, in the order it has (the tests after this one read it).
      const reordered = await call('PUT', '/api/admin/message-categories/order/', { ids: after.map((c) => c.id) });
      expect(reordered.statusCode).toBe(200);
    } finally {
      await t.database.db.delete(messageCategories).where(
        inArray(
          messageCategories.id,
          filling.map((row) => row.id),
        ),
      );
      await call('DELETE', `/api/admin/message-categories/${held.id}/`);
    }
  });

  it('exports a file that imports back: a category it names keeps its place, a new one goes last', async () => {
    const exported = await call('GET', '/api/admin/message-categories/export/');
    expect(exported.headers['content-disposition']).toContain('innerwave-messages.json');
    const file = exported.json() as { categories: Array<{ name: string; messages: string[] }> };
    // Sleep, created by hand and not filled yet, has nothing to export (and an import would refuse it).
    expect(file.categories).toEqual([{ name: 'Calmness', messages: ['I am at ease.'] }]);
    expect((await call('POST', '/api/admin/message-categories/import/', file)).json()).toEqual({
      categories_created: 0,
      categories_updated: 1,
      messages: 1,
    });

    const imported = await call('POST', '/api/admin/message-categories/import/', {
      categories: [
        { name: 'Gratitude', messages: ['I am thankful.'] },
        { name: 'Sleep', messages: ['I rest deeply.', 'I wake refreshed.'] },
        { name: 'Calmness', messages: ['I am at ease.', 'I breathe slowly.'] },
      ],
    });
    expect(imported.json()).toEqual({ categories_created: 1, categories_updated: 2, messages: 5 });
    const list = (await call('GET', '/api/admin/message-categories/')).json() as Array<{
      name: string;
      position: number;
    }>;
    expect(list.map((c) => c.name)).toEqual(['Calmness', 'Sleep', 'Gratitude']);
    const created = (await call('POST', '/api/admin/message-categories/', { name: 'Focus' })).json();
    expect(created.position).toBeGreaterThan(Math.max(...list.map((c) => c.position)));
    expect((await call('GET', '/api/admin/message-categories/export/')).json()).toEqual({
      categories: [
        { name: 'Calmness', messages: ['I am at ease.', 'I breathe slowly.'] },
        { name: 'Sleep', messages: ['I rest deeply.', 'I wake refreshed.'] },
        { name: 'Gratitude', messages: ['I am thankful.'] },
      ],
    });
    expect((await call('DELETE', `/api/admin/message-categories/${created.id}/`)).statusCode).toBe(204);
  });

  it('merges a category created while an import runs, and refuses its name to a create after it', async () => {
    const file = { categories: [{ name: 'Racing', messages: ['I keep my own pace.'] }] };
    let imported: ReturnType<typeof call> | undefined;
    // A create that commits while the import is under way (on PostgreSQL, on a connection of its own).
    await t.database.db.transaction(async (tx) => {
      await tx.insert(messageCategories).values({ name: 'Racing', position: 99 });
      imported = call('POST', '/api/admin/message-categories/import/', file);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const answer = await imported!;
    expect([answer.statusCode, answer.json()]).toEqual([
      200,
      { categories_created: 0, categories_updated: 1, messages: 1 },
    ]);
    const racing = (await call('GET', '/api/admin/message-categories/export/'))
      .json<typeof file>()
      .categories.filter((category) => category.name === 'Racing');
    expect(racing).toEqual(file.categories);

    const [late, lateImport] = await Promise.all([
      call('POST', '/api/admin/message-categories/', { name: 'Racing late' }),
      call('POST', '/api/admin/message-categories/import/', {
        categories: [{ name: 'Racing late', messages: ['I arrive in time.'] }],
      }),
    ]);
    // Whichever came first, the name exists once: the create made it, or it found it taken.
    expect([201, 400]).toContain(late.statusCode);
    expect(lateImport.statusCode).toBe(200);
    const names = (await call('GET', '/api/admin/message-categories/export/'))
      .json<typeof file>()
      .categories.map((category) => category.name);
    expect(names.filter((name) => name === 'Racing late')).toHaveLength(1);
  });

  it('refuses an invalid import file, naming the category, and changes nothing', async () => {
    const before = (await call('GET', '/api/admin/message-categories/export/')).json();
    const refused: Array<[object, string[]]> = [
      [
        {
          categories: [
            { name: 'Sleep', messages: ['ok'] },
            { name: 'Broken', messages: ['fine', ''] },
            { name: '  ', messages: ['x'] },
          ],
        },
        [
          'Category 2 ("\u2068Broken\u2069"), message 2: This field may not be blank.',
          'Category 3, name: This field may not be blank.',
        ],
      ],
      // An import that would empty a category (or add an empty one): members would find nothing in it.
      [
        {
          categories: [
            { name: 'Sleep', messages: ['ok'] },
            { name: 'Calmness', messages: [] },
          ],
        },
        ['Category 2 ("\u2068Calmness\u2069"), messages: A category needs at least one message.'],
      ],
      [{ categories: [{ name: 'Sleep' }] }, ['Category 1 ("\u2068Sleep\u2069"), messages: This field is required.']],
      [{ categories: ['Sleep'] }, ['Category 1: Invalid data. Expected a dictionary, but got str.']],
      [
        {
          categories: [
            { name: 'A', messages: ['a'] },
            { name: 'A', messages: ['b'] },
          ],
        },
        ['Category names must be unique.'],
      ],
      // Text the database cannot keep is named where it is, as any other problem; a name holding it is not repeated.
      [
        {
          categories: [
            { name: 'Sleep', messages: ['ok'] },
            { name: 'Calm', messages: ['a', 'b', 'c', 'd', 'I am \u0000 calm.', 'I am \ud800.'] },
            { name: 'Ca\u0000lm', messages: ['x'] },
          ],
        },
        [
          'Category 2 ("\u2068Calm\u2069"), message 5: Null characters are not allowed.',
          'Category 2 ("\u2068Calm\u2069"), message 6: Surrogate characters are not allowed: U+D800.',
          'Category 3, name: Null characters are not allowed.',
        ],
      ],
      // A long name is cut between characters, never inside one.
      [
        { categories: [{ name: `${'x'.repeat(39)}\u{1F600}\u{1F600}`, messages: [''] }] },
        [`Category 1 ("\u2068${'x'.repeat(39)}\u{1F600}…\u2069"), message 1: This field may not be blank.`],
      ],
    ];
    for (const [file, errors] of refused) {
      const answer = await call('POST', '/api/admin/message-categories/import/', file);
      expect([answer.statusCode, answer.json()]).toEqual([400, { categories: errors }]);
    }
    // Text the file's schema does not read is refused as in any body.
    const key = await call('POST', '/api/admin/message-categories/import/', {
      categories: [{ name: 'Sleep', messages: ['ok'] }],
      '\u0000': 1,
    });
    expect([key.statusCode, key.json()]).toEqual([400, { non_field_errors: ['Null characters are not allowed.'] }]);
    expect((await call('GET', '/api/admin/message-categories/export/')).json()).toEqual(before);
  });

  it('refuses an import over its limits (400, naming the field) and changes nothing; the largest allowed one is kept whole', async () => {
    const before = (await call('GET', '/api/admin/message-categories/export/')).json();
    const short = (n: number) => Array.from({ length: n }, (_, i) => `m${i}`);
    const refused: Array<[object, string]> = [
      [
        { categories: [{ name: 'Huge', messages: short(1_001) }] },
        'Category 1 ("\u2068Huge\u2069"), messages: Ensure this category has no more than 1000 messages.',
      ],
      [
        { categories: Array.from({ length: 11 }, (_, i) => ({ name: `Big ${i}`, messages: short(1_000) })) },
        'Ensure this file has no more than 10000 messages.',
      ],
      [
        { categories: Array.from({ length: 501 }, (_, i) => ({ name: `Small ${i}`, messages: ['m'] })) },
        'Ensure this field has no more than 500 elements.',
      ],
    ];
    for (const [file, message] of refused) {
      const answer = await call('POST', '/api/admin/message-categories/import/', file);
      expect([answer.statusCode, answer.json().categories]).toEqual([400, expect.arrayContaining([message])]);
    }
    // 70,000 short messages (under 1 MiB) overflowed the stack building one INSERT (a 500), and then held the
    // worker while each was read: more values than the largest file holds are refused before it is parsed.
    const huge = await call('POST', '/api/admin/message-categories/import/', {
      categories: [{ name: 'Huge', messages: short(70_000) }],
    });
    expect([huge.statusCode, huge.json()]).toEqual([
      400,
      {
        detail: `JSON parse error - the request body holds more than ${MESSAGES_IMPORT_LIMITS.values.toLocaleString('en-US')} values (list items and object members), the most this call takes.`,
      },
    ]);
    expect((await call('GET', '/api/admin/message-categories/export/')).json()).toEqual(before);

    // The most one import may hold: 10 categories of 1,000 messages, written in batches in one transaction.
    const largest = {
      categories: Array.from({ length: 10 }, (_, c) => ({ name: `Large ${c}`, messages: short(1_000) })),
    };
    const imported = await call('POST', '/api/admin/message-categories/import/', largest);
    expect(imported.json()).toEqual({ categories_created: 10, categories_updated: 0, messages: 10_000 });
    const after = (await call('GET', '/api/admin/message-categories/export/')).json();
    expect(after).toEqual({ categories: [...before.categories, ...largest.categories] });
  });

  it('imports the largest file the contract takes, far over the 1 MiB of other bodies, and refuses a larger body', async () => {
    // 10 categories of 1,000 messages of 500 characters, two bytes each: about 10 MB, refused as too large before.
    const text = (c: number, m: number) => `${c}.${m} `.padEnd(MESSAGE_TEXT_MAX, 'é');
    const file = {
      categories: Array.from({ length: 10 }, (_, c) => ({
        name: `Long ${c}`,
        messages: Array.from({ length: 1_000 }, (_, m) => text(c, m)),
      })),
    };
    const imported = await call('POST', '/api/admin/message-categories/import/', file);
    expect([imported.statusCode, imported.json()]).toEqual([
      200,
      { categories_created: 10, categories_updated: 0, messages: 10_000 },
    ]);
    const over = await t.app.inject({
      method: 'POST',
      url: '/api/admin/message-categories/import/',
      headers: { ...staff.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ categories: [], padding: ' '.repeat(MESSAGES_IMPORT_LIMITS.bytes) }),
    });
    expect([over.statusCode, over.json()]).toEqual([413, { detail: 'Request body is too large.' }]);
  });

  it('takes a category name for one whatever its case, in a create, a rename and an import', async () => {
    const duplicate = { name: ['message category with this name already exists.'] };
    const ocean = await call('POST', '/api/admin/message-categories/', { name: 'Ocean' });
    const otherCase = await call('POST', '/api/admin/message-categories/', { name: '  oCEAN ' });
    expect([otherCase.statusCode, otherCase.json()]).toEqual([400, duplicate]);
    const tide = (await call('POST', '/api/admin/message-categories/', { name: 'Tide' })).json();
    const clash = await call('PATCH', `/api/admin/message-categories/${tide.id}/`, { name: 'OCEAN' });
    expect([clash.statusCode, clash.json()]).toEqual([400, duplicate]);
    // Its own name in another case is a rename.
    const recased = await call('PATCH', `/api/admin/message-categories/${ocean.json().id}/`, { name: 'OCEAN' });
    expect(recased.json()).toMatchObject({ name: 'OCEAN' });

    // An import naming it in another case replaces its messages; it keeps its name and place.
    const before = (await call('GET', '/api/admin/message-categories/')).json() as Array<{ name: string }>;
    const imported = await call('POST', '/api/admin/message-categories/import/', {
      categories: [{ name: 'ocean', messages: ['I flow.'] }],
    });
    expect(imported.json()).toEqual({ categories_created: 0, categories_updated: 1, messages: 1 });
    const after = (await call('GET', '/api/admin/message-categories/')).json() as Array<{
      name: string;
      messages: Array<{ message_text: string }>;
    }>;
    expect(after.map((c) => c.name)).toEqual(before.map((c) => c.name));
    expect(after.find((c) => c.name === 'OCEAN')?.messages.map((m) => m.message_text)).toEqual(['I flow.']);
    const twice = await call('POST', '/api/admin/message-categories/import/', {
      categories: [
        { name: 'Wave', messages: ['a'] },
        { name: 'WAVE', messages: ['b'] },
      ],
    });
    expect([twice.statusCode, twice.json()]).toEqual([400, { categories: ['Category names must be unique.'] }]);
  });
});
