import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { createTestDatabase } from '../test/database';
import { eq } from 'drizzle-orm';
import { insertJob } from '../jobs/queue';
import { jobs } from '../jobs/table';
import { billingAccounts, desktopApplications, users } from '../db/schema';
import { runCli } from './cli';
import { fakeMp3, toneWav } from './test/fake-audio';

interface Run {
  code: number;
  out: string;
  err: string;
}

describe('admin CLI', () => {
  let database: Database;
  let dataDir: string;
  let files: string;
  const env = () => ({
    DATA_DIR: dataDir,
    SECRET_KEY: 'cli-test-secret-key-that-is-long-enough-012345',
    PUBLIC_URL: 'http://innerwave.test',
  });

  async function cli(args: string[], stdin = ''): Promise<Run> {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await runCli(args, { stdin: Readable.from([stdin]), stdout, stderr }, { database, env: env() });
    return { code, out, err };
  }
  const mediaFiles = () =>
    existsSync(path.join(dataDir, 'media'))
      ? (
          readdirSync(path.join(dataDir, 'media'), { recursive: true, withFileTypes: true }) as Array<{
            isFile(): boolean;
            name: string;
          }>
        )
          .filter((e) => e.isFile())
          .map((e) => e.name)
      : [];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-cli-'));
    files = mkdtempSync(path.join(tmpdir(), 'innerwave-cli-files-'));
  });
  afterAll(async () => {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(files, { recursive: true, force: true });
  });

  it('lists background jobs by status and retries a dead one', async () => {
    const id = (await insertJob(database.db, { kind: 'mail.activation', payload: { userId: 1 } }))!;
    await database.db
      .update(jobs)
      .set({ status: 'dead', attempts: 8, lastError: 'connect ECONNREFUSED 127.0.0.1:25\nmore' })
      .where(eq(jobs.id, id));
    const list = await cli(['jobs', '--status', 'failed,dead']);
    expect(list.code).toBe(0);
    expect(list.out).toContain('queued 0, running 0, done 0, failed 0, dead 1\n');
    expect(list.out).toMatch(
      new RegExp(`${id}  dead +mail\\.activation +8/8 .*connect ECONNREFUSED 127\\.0\\.0\\.1:25\\n`),
    );
    expect((await cli(['jobs', '--status', 'stuck'])).code).toBe(2);
    expect(await cli(['retry-job', String(id)])).toMatchObject({
      code: 0,
      out: `Job ${id} (mail.activation) is queued again.\n`,
    });
    expect((await cli(['retry-job', String(id)])).code).toBe(1);
    expect((await cli(['retry-job', '999999'])).err).toContain('No job 999999.');
    expect(await cli(['retry-job', `${id}e0`])).toMatchObject({
      code: 1,
      err: expect.stringContaining(`No job ${id}e0:`),
    });
    await database.db.delete(jobs);
  });

  it('prints help, and refuses unknown commands and options with exit code 2', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('create-staff --email <e-mail>');
    expect((await cli([])).code).toBe(2);
    const unknown = await cli(['launch-rockets']);
    expect([unknown.code, unknown.err.split('\n')[0]]).toEqual([2, 'Unknown command "launch-rockets".']);
    const option = await cli(['list-users', '--colour']);
    expect(option.code).toBe(2);
    expect(option.err).toContain("Unknown option '--colour'");
  });

  it('creates a staff user from a password on stdin, and refuses a weak password or a taken e-mail', async () => {
    const weak = await cli(['create-staff', '--email', 'ops@innerwave.test'], '12345678\n');
    expect(weak.code).toBe(1);
    expect(weak.err).toContain('password: This password is too common.');
    const created = await cli(
      ['create-staff', '--email', 'ops@innerwave.test', '--first-name', 'Olga'],
      'quiet-harbour-lantern-9\n',
    );
    expect(created).toMatchObject({ code: 0, out: 'Created staff user \u2068ops@innerwave.test\u2069 (id 1).\n' });
    const taken = await cli(['create-staff', '--email', 'OPS@innerwave.test'], 'quiet-harbour-lantern-9\n');
    expect(taken.code).toBe(1);
    expect(taken.err).toContain('email: user with this email already exists.');
    const missing = await cli(['create-staff']);
    expect(missing.code).toBe(2);
    // A NUL in it would be refused at every login.
    const nul = await cli(['create-staff', '--email', 'nul@innerwave.test'], 'quiet-harbour\u0000lantern-9\n');
    expect([nul.code, nul.err]).toEqual([1, 'password: Null characters are not allowed.\nNothing was changed.\n']);
  });

  it('sets plans, deactivates and activates users by e-mail, and lists them', async () => {
    const setPlan = await cli(['set-plan', 'ops@innerwave.test', 'pro']);
    expect(setPlan.out).toBe('\u2068ops@innerwave.test\u2069 is now on the Pro plan.\n');
    // The override is logged: who, whose plan, from what to what.
    expect(setPlan.err).toMatch(/^operator override by .+: ops@innerwave\.test \w+ → pro\.\n$/);
    expect((await cli(['set-plan', 'ops@innerwave.test', 'gold'])).code).toBe(2);
    const nobody = await cli(['deactivate', 'nobody@innerwave.test']);
    expect([nobody.code, nobody.err]).toEqual([
      1,
      'No user with the e-mail \u2068nobody@innerwave.test\u2069.\nNothing was changed.\n',
    ]);
    expect((await cli(['deactivate', 'ops@innerwave.test'])).out).toBe('Deactivated \u2068ops@innerwave.test\u2069.\n');
    const list = await cli(['list-users', '--search', 'OPS']);
    const today = new Date().toISOString().slice(0, 10);
    expect(list.out).toMatch(
      new RegExp(`ops@innerwave\\.test\\s+pro\\s+deactivated on ${today}\\s+staff\\n1 user\\.\\n`),
    );
    expect(await cli(['activate', 'ops@innerwave.test'])).toMatchObject({
      code: 0,
      out: 'Activated \u2068ops@innerwave.test\u2069.\n',
    });
    expect((await cli(['list-users', '--search', 'OPS'])).out).toMatch(/ops@innerwave\.test\s+pro\s+active\s+staff\n/);
    // An account that signed up and never opened its link.
    await database.db.insert(users).values({ email: 'waiting@innerwave.test', passwordHash: 'x', isActive: false });
    expect((await cli(['list-users', '--search', 'waiting'])).out).toMatch(
      /waiting@innerwave\.test\s+basic\s+not activated yet\n1 user\.\n/,
    );
    // Pages of 50, newest first; those needing attention say why.
    await database.db
      .insert(users)
      .values(Array.from({ length: 60 }, (_, i) => ({ email: `crowd${i}@innerwave.test`, passwordHash: 'x' })));
    const firstPage = await cli(['list-users', '--search', 'crowd']);
    expect(firstPage.out).toMatch(
      /^ +\d+ {2}crowd59@innerwave\.test .*\n(.*\n){49}60 users, page 1 of 2 \(1–50 shown\)\.\nNext page: npm run admin -- list-users --search crowd --newest-id \d+ --after \d+\n$/,
    );
    // The command a page prints for the next one, as the operator would paste it.
    const pageFrom = (out: string, which: 'Next' | 'Previous' | 'Last') => {
      const line = new RegExp(`^${which} page: npm run admin -- (.*)$`, 'm').exec(out)?.[1];
      expect(line, `${which} page in:\n${out}`).toBeDefined();
      return cli(line!.split(' '));
    };
    // Two more sign up and one on the first page is deleted: the second page still starts where the first
    // ended, and says where it is (the 50th to the 59th of 59, not "51–60").
    await database.db
      .insert(users)
      .values([60, 61].map((i) => ({ email: `crowd${i}@innerwave.test`, passwordHash: 'x' })));
    await database.db.delete(users).where(eq(users.email, 'crowd30@innerwave.test'));
    const second = await pageFrom(firstPage.out, 'Next');
    expect(second.out).toMatch(
      /^ +\d+ {2}crowd9@innerwave\.test .*\n(.*\n){8} +\d+ {2}crowd0@innerwave\.test .*\n59 users, page 2 of 2 \(50–59 shown\)\. 2 more signed up since\.\nPrevious page: npm run admin -- list-users --search crowd --newest-id \d+ --before \d+\n$/,
    );
    const back = await pageFrom(second.out, 'Previous');
    expect(back.out).toMatch(
      /^ +\d+ {2}crowd59@innerwave\.test .*\n(.*\n){48}59 users, page 1 of 2 \(1–49 shown\)\. 2 more signed up since\.\nNext page: .* --after \d+\n$/,
    );
    const pastEnd = await cli(['list-users', '--search', 'crowd', '--page', '3']);
    expect(pastEnd.out).toMatch(
      /^61 users, 2 pages \(none shown: past the last page\)\.\nLast page: npm run admin -- list-users --search crowd --newest-id \d+ --page 2\n$/,
    );
    expect((await pageFrom(pastEnd.out, 'Last')).out).toMatch(
      /\n61 users, page 2 of 2 \(51–61 shown\)\.\nPrevious page: /,
    );
    // A search of more than one word comes back as one.
    await database.db
      .insert(users)
      .values({ email: 'mary@innerwave.test', firstName: 'Mary', lastName: "O'Brien", passwordHash: 'x' });
    expect((await cli(['list-users', '--search', "Mary O'Brien", '--page', '2'])).out).toMatch(
      /^1 user, 1 page \(none shown: past the last page\)\.\nLast page: npm run admin -- list-users --search 'Mary O'\\''Brien' --newest-id \d+ --page 1\n$/,
    );
    const [past] = await database.db
      .insert(users)
      .values({ email: 'past-due@innerwave.test', passwordHash: 'x', isActive: true })
      .returning({ id: users.id });
    await database.db
      .insert(billingAccounts)
      .values({ userId: past!.id, stripeCustomerId: 'cus_past', subscriptionStatus: 'past_due' });
    expect((await cli(['list-users', '--attention'])).out).toMatch(
      /past-due@innerwave\.test\s+basic\s+active\s+needs attention: payment_failed\n1 user\.\n$/,
    );
    expect(await cli(['list-users', '--page', '0'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('--page: Ensure this value is greater than or equal to 1.') as unknown,
    });
    expect(await cli(['list-users', '--newest-id', 'x'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('--newest-id: A valid integer is required.') as unknown,
    });
    expect(await cli(['list-users', '--after', 'x'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('--after: A valid integer is required.') as unknown,
    });
    expect(await cli(['list-users', '--before', '0'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('--before: Ensure this value is greater than or equal to 1.') as unknown,
    });
    expect(await cli(['list-users', '--after', '5', '--before', '9'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('Give one of --page, --after and --before, not --after and --before.') as unknown,
    });
  });

  it("shows a user's waiting change of e-mail address, and cancels it as the person's own cancel does", async () => {
    const requested = new Date('2026-12-03T07:05:09Z');
    await database.db.insert(users).values({
      email: 'emmy@innerwave.test',
      passwordHash: 'x',
      isActive: true,
      pendingEmail: 'Emmy.New@innerwave.test',
      pendingEmailAt: requested,
    });
    expect((await cli(['list-users', '--search', 'emmy'])).out).toMatch(
      /emmy@innerwave\.test\s+basic\s+active {2}e-mail change to \u2068Emmy\.New@innerwave\.test\u2069 waiting since 2026-12-03 07:05 UTC\n1 user\.\n$/,
    );
    expect(await cli(['cancel-email-change', 'EMMY@innerwave.test'])).toEqual({
      code: 0,
      out: 'Cancelled the change of \u2068emmy@innerwave.test\u2069 to \u2068Emmy.New@innerwave.test\u2069; its link no longer works.\n',
      err: '',
    });
    const [row] = await database.db
      .select({ pendingEmail: users.pendingEmail, pendingEmailAt: users.pendingEmailAt })
      .from(users)
      .where(eq(users.email, 'emmy@innerwave.test'));
    expect(row).toEqual({ pendingEmail: null, pendingEmailAt: null });
    expect((await cli(['list-users', '--search', 'emmy'])).out).toMatch(
      /emmy@innerwave\.test\s+basic\s+active\n1 user\.\n$/,
    );
    // Nothing waiting is no error; no such user is refused, and no e-mail is wrong usage.
    expect((await cli(['cancel-email-change', 'emmy@innerwave.test'])).out).toBe(
      '\u2068emmy@innerwave.test\u2069 has no change of e-mail address waiting.\n',
    );
    expect((await cli(['cancel-email-change', 'nobody@innerwave.test'])).code).toBe(1);
    expect((await cli(['cancel-email-change'])).code).toBe(2);
  });

  it('imports and exports messages, and refuses a bad file without changing anything', async () => {
    const file = path.join(files, 'messages.json');
    writeFileSync(
      file,
      JSON.stringify({
        categories: [
          { name: 'Calm', messages: ['I am calm.', 'I breathe.'] },
          { name: 'Focus', messages: ['I notice one thing.'] },
        ],
      }),
    );
    expect((await cli(['import-messages', file])).out).toBe('Imported 3 messages: 2 categories created, 0 replaced.\n');
    const bad = path.join(files, 'bad.json');
    writeFileSync(bad, JSON.stringify({ categories: [{ name: 'Calm', messages: [''] }] }));
    const refused = await cli(['import-messages', bad]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      'categories: Category 1 ("\u2068Calm\u2069"), message 1: This field may not be blank.',
    );
    writeFileSync(bad, '{ not json');
    expect((await cli(['import-messages', bad])).err).toContain('is not valid JSON');
    // What the API refuses in any body: escapes in the JSON text for a NUL and a lone surrogate.
    for (const [text, refusal] of [
      [
        '{"categories": [{"name": "Ca\\u0000lm", "messages": ["x"]}]}',
        'categories: Category 1, name: Null characters are not allowed.',
      ],
      [
        '{"categories": [{"name": "Calm", "messages": ["I am \\ud800."]}]}',
        'categories: Category 1 ("\u2068Calm\u2069"), message 1: Surrogate characters are not allowed: U+D800.',
      ],
      ['{"categories": [], "\\u0000": 1}', '(file): Null characters are not allowed.'],
    ] as const) {
      writeFileSync(bad, text);
      expect(await cli(['import-messages', bad]), text).toEqual({
        code: 1,
        out: '',
        err: `${bad} is not a messages file; nothing was imported:\n  ${refusal}\n`,
      });
    }
    const stdout = await cli(['export-messages']);
    expect(JSON.parse(stdout.out)).toEqual({
      categories: [
        { name: 'Calm', messages: ['I am calm.', 'I breathe.'] },
        { name: 'Focus', messages: ['I notice one thing.'] },
      ],
    });
    const out = path.join(files, 'out.json');
    expect((await cli(['export-messages', out])).out).toBe(`Exported 2 categories and 3 messages to ${out}.\n`);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(JSON.parse(stdout.out));
  });

  it('adds, replaces and removes audio items from local files', async () => {
    const audio = path.join(files, 'tone.mp3');
    writeFileSync(audio, fakeMp3());
    const cover = path.join(files, 'cover.jpg');
    writeFileSync(
      cover,
      await sharp({ create: { width: 300, height: 300, channels: 3, background: '#224466' } })
        .jpeg()
        .toBuffer(),
    );
    const text = path.join(files, 'notes.txt');
    writeFileSync(text, 'just text');

    const notAudio = await cli(['add-audio', '--kind', 'bonus', '--name', 'Rain', '--file', text]);
    expect(notAudio.code).toBe(1);
    expect(notAudio.err).toContain('audio_file: Upload an audio file');
    expect((await cli(['add-audio', '--kind', 'podcast', '--name', 'Rain', '--file', audio])).code).toBe(2);
    expect(
      (await cli(['add-audio', '--kind', 'bonus', '--name', 'Rain', '--file', path.join(files, 'missing.mp3')])).err,
    ).toContain('No such file');
    expect(mediaFiles()).toEqual([]);

    const added = await cli([
      'add-audio',
      '--kind',
      'bonus',
      '--name',
      'Rain',
      '--description',
      'Soft rain.',
      '--file',
      audio,
      '--cover',
      cover,
    ]);
    expect(added.out).toMatch(/^Added bonus audio item "\u2068Rain\u2069" \(id \d+\) with a cover\.\n$/);
    expect(mediaFiles()).toHaveLength(2);
    // A name as stored, in its own box: an override stored before decision 063 ends with it.
    expect((await cli(['list-audio', '--kind', 'bonus'])).out).toMatch(/^ +\d+ {2}\u2068Rain\u2069\n1 item\.\n$/);

    const wav = path.join(files, 'tone.wav');
    writeFileSync(wav, toneWav());
    // Named as a reader tells it: whatever its case, and whatever is drawn as nothing in it (decision 091).
    expect((await cli(['replace-audio', '--kind', 'bonus', '--name', 'ra\u2060in', '--file', wav])).out).toBe(
      'Replaced the audio file of "\u2068Rain\u2069".\n',
    );
    expect(mediaFiles().sort()).toEqual(
      expect.arrayContaining([expect.stringMatching(/\.wav$/), expect.stringMatching(/\.webp$/)]),
    );
    expect(mediaFiles()).toHaveLength(2);

    expect((await cli(['remove-audio', '--kind', 'bonus', '--name', 'Rain'])).out).toBe(
      'Removed bonus audio item "\u2068Rain\u2069" and its files.\n',
    );
    expect(mediaFiles()).toEqual([]);
    expect((await cli(['remove-audio', '--kind', 'bonus', '--name', 'Rain'])).err).toContain(
      'No bonus audio item named "\u2068Rain\u2069".',
    );
  });

  it('adds, lists and removes desktop applications', async () => {
    const installer = path.join(files, 'Innerwave-Setup.msi');
    writeFileSync(installer, randomBytes(3000));
    const added = await cli([
      'add-app',
      '--version',
      '3.0.1',
      '--description',
      'Windows installer',
      '--file',
      installer,
    ]);
    expect(added.out).toMatch(/^Added desktop application 3\.0\.1 \(id (\d+), 3\u00a0KB\)\.\n$/);
    const id = /id (\d+)/.exec(added.out)![1]!;
    expect((await cli(['list-apps'])).out).toMatch(/3\.0\.1.*\.msi\n1 application\.\n$/);
    const script = path.join(files, 'install.sh');
    writeFileSync(script, '#!/bin/sh');
    expect((await cli(['add-app', '--version', '1', '--file', script])).err).toContain(
      'application_file: Upload an installer',
    );
    expect(await cli(['add-app', '--file', installer])).toMatchObject({
      code: 2,
      err: expect.stringContaining('Missing --version.'),
    });
    // Read as the API reads an id in a path: anything but plain digits names nothing (its 404), exit 1.
    for (const given of ['x', '1e0', `${id}.0`, `+${id}`, `0${id}`, ` ${id}`, '0x1', '0', '2147483648'])
      expect(await cli(['remove-app', given]), given).toEqual({
        code: 1,
        out: '',
        err: `No desktop application ${given}: an id is a whole number as list-apps shows it.\n`,
      });
    expect((await cli(['list-apps'])).out).toContain('1 application.');
    expect((await cli(['remove-app', id])).out).toBe(`Removed desktop application 3.0.1 (id ${id}) and its file.\n`);
    expect(mediaFiles()).toEqual([]);

    // A file the storage will not remove (here a folder in its place) is named on standard error, and the sentence
    // does not say it went.
    const kept = /id (\d+)/.exec((await cli(['add-app', '--version', '3.0.2', '--file', installer])).out)![1]!;
    const [stored] = await database.db
      .select()
      .from(desktopApplications)
      .where(eq(desktopApplications.id, Number(kept)));
    const storedPath = path.join(dataDir, 'media', stored!.applicationFile);
    rmSync(storedPath);
    mkdirSync(storedPath);
    writeFileSync(path.join(storedPath, 'in-the-way'), '');
    const removedKept = await cli(['remove-app', kept]);
    expect(removedKept.out).toBe(`Removed desktop application 3.0.2 (id ${kept}).\n`);
    expect(removedKept.err).toMatch(/could not all be removed: remove those left from the media storage: .*\.msi /);
  });

  it('refuses to open the embedded database while the server holds the data folder', async () => {
    const lockedDir = mkdtempSync(path.join(tmpdir(), 'innerwave-cli-locked-'));
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(path.join(lockedDir, 'innerwave.lock'), `${holder.pid}\n`);
      const stderr = new PassThrough();
      let err = '';
      stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const code = await runCli(
        ['list-users'],
        { stdin: Readable.from(['']), stdout: new PassThrough(), stderr },
        { env: { DATA_DIR: lockedDir } },
      );
      expect(code).toBe(3);
      expect(err).toContain(`in use by another Innerwave process (pid ${holder.pid})`);
      expect(err).toContain('admin screens at /admin');
    } finally {
      holder.kill();
      rmSync(lockedDir, { recursive: true, force: true });
    }
  });
});
