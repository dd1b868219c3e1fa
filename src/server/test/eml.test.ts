import { mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailer } from '../mail/mailer';
import { activationMail } from '../mail/templates';
import { readOutbox } from './eml';

const dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-eml-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const mailer = createMailer({
  smtpUrl: undefined,
  from: 'Innerwave <no-reply@innerwave.test>',
  dataDir,
  logLinks: false,
});
const quiet = { info: () => undefined, error: () => undefined };
const send = (to: string) => mailer.send(activationMail(to, `http://innerwave.test/activation/MQ/${to}`, 3), quiet);

describe('readOutbox', () => {
  it('reads each mail file once, and still sees the mails written or removed since', async () => {
    const outbox = mailer.outboxDir!;
    await send('ada@example.com');
    const [first] = await readOutbox(outbox);
    expect(first).toMatchObject({ to: 'ada@example.com', subject: 'Activate your Innerwave account' });

    // A file already read is not read again (the mailer never rewrites one): a poll parses only new mails.
    const [firstFile] = readdirSync(outbox);
    writeFileSync(path.join(outbox, firstFile!), 'To: someone-else@example.com\n\n');
    expect((await readOutbox(outbox)).map((mail) => mail.to)).toEqual(['ada@example.com']);

    await new Promise((resolve) => setTimeout(resolve, 2));
    await send('grace@example.com');
    expect((await readOutbox(outbox)).map((mail) => mail.to)).toEqual(['ada@example.com', 'grace@example.com']);

    unlinkSync(path.join(outbox, firstFile!));
    expect((await readOutbox(outbox)).map((mail) => mail.to)).toEqual(['grace@example.com']);
  });
});
