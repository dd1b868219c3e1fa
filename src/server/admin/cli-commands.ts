import { createReadStream } from 'node:fs';
import { rename, stat, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';
import {
  ADMIN_USER_PAGE_SIZE,
  adminJobQuerySchema,
  adminUserQuerySchema,
  AUDIO_KINDS,
  messagesFileSchema,
  pathId,
  UPLOAD_LIMITS,
  type AdminUser,
  type AudioKind,
} from '@shared/contract';
import { accountStatus, isolated } from '@shared/contract/plain';
import { SUBSCRIPTION_PLANS, type SubscriptionPlan } from '@shared/constants';
import { planName } from '@shared/plans';
import { formatBytes } from '@shared/bytes';
import { discardStaged, FileTooLargeError, stageStream, type LeftFilesLog, type StagedFile } from '../media/store';
import type { ContentStore } from './media-context';
import { CliError, EXIT, readJsonFile, readPassword, type CliIo } from './cli-io';
import {
  cancelUserEmailChange,
  createStaffUser,
  findUserIdByEmail,
  getUser,
  listUsersFor,
  updateUser,
} from './users-service';
import { exportMessages, importMessages } from './messages-service';
import {
  createAudioItem,
  deleteAudioItem,
  findAudioItemByName,
  listAudioItems,
  replaceAudioFiles,
} from './audio-service';
import { createApplication, deleteApplication, listApplications } from './applications-service';
import { jobOverview, parseStatuses, retryFailedJob } from './jobs-service';
import { ApiError } from '../http/errors';
import { PROGRAM_COMMANDS } from './cli-programs';
import type { StripeConfig } from '../config';
import { expireCheckoutsNotForSale } from '../billing/checkout-expiry';
import { createStripeClient } from '../billing/stripe-client';

export interface CommandContext {
  store: ContentStore;
  io: CliIo;
  maxApplicationBytes: number;
  /** Stripe as configured (undefined: payments are not set up). */
  stripe: StripeConfig | undefined;
  /** Options and positionals of the command line, as node:util parseArgs gives them. */
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export interface Command {
  usage: string;
  summary: string;
  options?: Record<string, { type: 'string' | 'boolean' }>;
  run(c: CommandContext): Promise<void>;
}

const print = (c: CommandContext, line: string) => c.io.stdout.write(`${line}\n`);

/**
 * Files the storage would not remove after a change was saved, told to the operator on standard error; `left`
 * says so to the command's own sentence.
 */
function leftFilesLog(c: CommandContext): LeftFilesLog & { left: boolean } {
  const log = {
    left: false,
    error: ({ err, files }: { err: unknown; files: string[] }, message: string) => {
      log.left = true;
      c.io.stderr.write(`${message}: ${files.join(', ')} (${(err as Error).message}).\n`);
    },
  };
  return log;
}

function required(c: CommandContext, name: string): string {
  const value = c.values[name];
  if (typeof value !== 'string' || !value.trim()) throw new CliError(`Missing --${name}.`, EXIT.usage);
  return value;
}

function positional(c: CommandContext, index: number, what: string): string {
  const value = c.positionals[index];
  if (!value) throw new CliError(`Missing ${what}.`, EXIT.usage);
  return value;
}

/**
 * The row id a command names, read as the API reads one in a path (decimal digits without a sign or a
 * leading zero): anything else ("1e0", "+1", "01") names nothing, as the API's 404 says.
 */
function idArgument(c: CommandContext, what: string, listCommand: string): number {
  const given = positional(c, 0, `the ${what} id (see ${listCommand})`);
  const id = pathId().safeParse(given);
  if (!id.success) throw new CliError(`No ${what} ${given}: an id is a whole number as ${listCommand} shows it.`);
  return id.data;
}

function kindOf(c: CommandContext): AudioKind {
  const kind = required(c, 'kind');
  if (!(AUDIO_KINDS as readonly string[]).includes(kind))
    throw new CliError(`--kind must be one of: ${AUDIO_KINDS.join(', ')}.`, EXIT.usage);
  return kind as AudioKind;
}

/** Streams a local file into the media folder's staging area, as an upload would be. */
async function stageLocalFile(c: CommandContext, file: string, maxBytes: number): Promise<StagedFile> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new CliError(`No such file: ${file}`);
  try {
    return await stageStream(createReadStream(file), c.store.files.stagingRoot, maxBytes);
  } catch (error) {
    if (error instanceof FileTooLargeError) throw new CliError(`${file}: ${error.message}`);
    throw error;
  }
}

/** Stages several optional files; if one fails, the ones already staged are removed. */
async function stageLocalFiles(
  c: CommandContext,
  files: ReadonlyArray<[string | undefined, number]>,
): Promise<Array<StagedFile | undefined>> {
  const staged: Array<StagedFile | undefined> = [];
  try {
    for (const [file, maxBytes] of files) staged.push(file ? await stageLocalFile(c, file, maxBytes) : undefined);
    return staged;
  } catch (error) {
    for (const file of staged) await discardStaged(file);
    throw error;
  }
}

/** Who runs the CLI, for the override's log line. */
function operatorName(): string {
  try {
    return userInfo().username;
  } catch {
    return 'an unnamed operator';
  }
}

/** A word as a POSIX shell reads it back unchanged: quoted unless it is plainly one word. */
const shellWord = (word: string) => (/^[\w@.+,:=/-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

/** A moment as the CLI writes it: "2026-12-03 07:05 UTC". */
const utcMinute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** The change of e-mail address a user waits for (docs/decisions/061-…), at the end of their line. */
const waitingChange = (u: AdminUser) =>
  u.pending_email_change
    ? `e-mail change to ${isolated(u.pending_email_change.new_email)} waiting since ${utcMinute(u.pending_email_change.requested_at)}`
    : '';

const userLine = (u: AdminUser) =>
  [
    `${String(u.id).padStart(5)}  ${u.email.padEnd(36)} ${u.subscription_plan.padEnd(13)} ${accountStatus(u, (iso) => iso.slice(0, 10)).padEnd(25)} ${(u.is_staff ? 'staff' : '').padEnd(6)}${u.attention.length ? `needs attention: ${u.attention.join(', ')}` : ''}`.trimEnd(),
    waitingChange(u),
  ]
    .filter(Boolean)
    .join('  ');

async function setActive(c: CommandContext, active: boolean) {
  const email = positional(c, 0, "the user's e-mail");
  const user = await updateUser(c.store.db, await findUserIdByEmail(c.store.db, email), { is_active: active });
  print(c, `${active ? 'Activated' : 'Deactivated'} ${isolated(user.email)}.`);
}

export const COMMANDS: Record<string, Command> = {
  'create-staff': {
    usage: 'create-staff --email <e-mail> [--first-name <name>] [--last-name <name>]',
    summary: 'Create an active staff user; asks for the password (or reads it from stdin).',
    options: { email: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' } },
    async run(c) {
      const email = required(c, 'email');
      const password = await readPassword(c.io);
      const user = await createStaffUser(c.store.db, {
        email,
        password,
        firstName: c.values['first-name'] as string | undefined,
        lastName: c.values['last-name'] as string | undefined,
      });
      print(c, `Created staff user ${isolated(user.email)} (id ${user.id}).`);
    },
  },
  'set-plan': {
    usage: `set-plan <e-mail> <${SUBSCRIPTION_PLANS.join('|')}>`,
    summary:
      "Set a user's subscription plan (an override, logged; a Stripe subscription sets it again at its next event).",
    async run(c) {
      const email = positional(c, 0, "the user's e-mail");
      const plan = positional(c, 1, 'the plan');
      if (!(SUBSCRIPTION_PLANS as readonly string[]).includes(plan))
        throw new CliError(`The plan must be one of: ${SUBSCRIPTION_PLANS.join(', ')}.`, EXIT.usage);
      const id = await findUserIdByEmail(c.store.db, email);
      const before = await getUser(c.store.db, id);
      const user = await updateUser(c.store.db, id, { subscription_plan: plan as SubscriptionPlan });
      print(c, `${isolated(user.email)} is now on the ${planName(user.subscription_plan)} plan.`);
      // The override's log line (who, what); a Stripe subscription sets the plan again at its next event.
      const subscription = user.billing.status
        ? ` Its Stripe subscription (${user.billing.status}) sets the plan again at its next event.`
        : '';
      c.io.stderr.write(
        `operator override by ${operatorName()}: ${user.email} ${before.subscription_plan} → ${user.subscription_plan}.${subscription}\n`,
      );
      const customer = user.billing.stripe_customer_id;
      if (!c.stripe || !customer) return;
      // The CLI waits for Stripe, saying so: up to the client's timeouts and retries while it is out of reach.
      print(c, 'Closing their open Stripe Checkout pages (this waits for Stripe)…');
      try {
        const pages = await expireCheckoutsNotForSale(c.store.db, await createStripeClient(c.stripe), id, customer);
        print(
          c,
          pages
            ? 'Their open Stripe Checkout page can no longer be paid.'
            : 'None of their open Checkout pages needed closing.',
        );
      } catch (error) {
        c.io.stderr.write(
          `Stripe did not close their open Checkout pages (${(error as Error).message}); the plan is set. Expire the open Checkout sessions of customer ${customer} at Stripe, or they can be paid until Stripe expires them (24 hours after they were opened).\n`,
        );
      }
    },
  },
  activate: { usage: 'activate <e-mail>', summary: 'Let a user sign in.', run: (c) => setActive(c, true) },
  deactivate: {
    usage: 'deactivate <e-mail>',
    summary: 'Stop a user from signing in.',
    run: (c) => setActive(c, false),
  },
  'cancel-email-change': {
    usage: 'cancel-email-change <e-mail>',
    summary:
      "Cancel the change of e-mail address a user asked for and has not confirmed: its links are refused from then on (the user's current e-mail).",
    async run(c) {
      const email = positional(c, 0, "the user's e-mail");
      const id = await findUserIdByEmail(c.store.db, email);
      const waiting = (await getUser(c.store.db, id)).pending_email_change;
      const user = await cancelUserEmailChange(c.store.db, id);
      print(
        c,
        waiting
          ? `Cancelled the change of ${isolated(user.email)} to ${isolated(waiting.new_email)}; its link no longer works.`
          : `${isolated(user.email)} has no change of e-mail address waiting.`,
      );
    },
  },
  'list-users': {
    usage:
      'list-users [--search <part of e-mail or name>] [--attention] [--page <n> | --after <id> | --before <id>] [--newest-id <id>]',
    summary: `List users, newest first, ${ADMIN_USER_PAGE_SIZE} a page; by e-mail or name, or only those needing attention. A page ends with the commands for the pages next to it: --after (or --before) the user it ended (or began) with, so that nobody deleted meanwhile moves anyone past it, and --newest-id, so that nobody signing up meanwhile does.`,
    options: {
      search: { type: 'string' },
      attention: { type: 'boolean' },
      page: { type: 'string' },
      after: { type: 'string' },
      before: { type: 'string' },
      'newest-id': { type: 'string' },
    },
    async run(c) {
      const given = (['page', 'after', 'before'] as const).filter((name) => c.values[name] !== undefined);
      if (given.length > 1)
        throw new CliError(
          `Give one of --page, --after and --before, not ${given.map((n) => `--${n}`).join(' and ')}.`,
          EXIT.usage,
        );
      const query = adminUserQuerySchema.safeParse({
        search: c.values.search,
        page: c.values.page,
        attention: c.values.attention ? 'true' : undefined,
        newest_id: c.values['newest-id'],
        after_id: c.values.after,
        before_id: c.values.before,
      });
      if (!query.success) {
        const [issue] = query.error.issues;
        const option = { newest_id: 'newest-id', after_id: 'after', before_id: 'before' }[String(issue?.path[0])];
        throw new CliError(`--${option ?? String(issue?.path[0])}: ${issue?.message ?? 'not valid'}`, EXIT.usage);
      }
      const list = await listUsersFor(c.store.db, query.data);
      const { results, count, newer, page, pages } = list;
      for (const user of results) print(c, userLine(user));
      const users = `${count} user${count === 1 ? '' : 's'}`;
      const since = newer ? ` ${newer} more signed up since.` : '';
      if (page === 1 && pages === 1) {
        print(c, `${users}.${since}`);
        return;
      }
      const shown = results.length
        ? `page ${page} of ${pages} (${list.offset + 1}–${list.offset + results.length} shown)`
        : `${pages} page${pages === 1 ? '' : 's'} (none shown: past the last page)`;
      print(c, `${users}, ${shown}.${since}`);
      // The pages next to this one, from its own users and within the same newest user (docs/decisions/053-…).
      const { search, attention } = query.data;
      const command = (...options: string[]) =>
        [
          'npm run admin -- list-users',
          ...(search ? ['--search', shellWord(search)] : []),
          ...(attention === 'true' ? ['--attention'] : []),
          ...(list.newest_id === null ? [] : ['--newest-id', String(list.newest_id)]),
          ...options,
        ].join(' ');
      if (!results.length) print(c, `Last page: ${command('--page', String(pages))}`);
      if (results.length && page > 1) print(c, `Previous page: ${command('--before', String(results[0]!.id))}`);
      if (results.length && page < pages) print(c, `Next page: ${command('--after', String(results.at(-1)!.id))}`);
    },
  },
  'import-messages': {
    usage: 'import-messages <file.json>',
    summary: "Import categories and messages; a category in the file gets exactly the file's messages.",
    async run(c) {
      const file = positional(c, 0, 'the JSON file');
      const messagesFile = await readJsonFile(file, messagesFileSchema, 'a messages file', {
        textCheckedBySchema: true,
      });
      const result = await importMessages(c.store.db, messagesFile);
      print(
        c,
        `Imported ${result.messages} messages: ${result.categories_created} categories created, ${result.categories_updated} replaced.`,
      );
    },
  },
  'export-messages': {
    usage: 'export-messages [file.json]',
    summary: 'Write every category with its messages as JSON (to stdout without a file).',
    async run(c) {
      const data = await exportMessages(c.store.db);
      const json = `${JSON.stringify(data, null, 2)}\n`;
      const file = c.positionals[0];
      if (!file) {
        c.io.stdout.write(json);
        return;
      }
      const temp = `${file}.${process.pid}.tmp`;
      await writeFile(temp, json);
      await rename(temp, file);
      const messages = data.categories.reduce((n, cat) => n + cat.messages.length, 0);
      print(c, `Exported ${data.categories.length} categories and ${messages} messages to ${file}.`);
    },
  },
  'list-audio': {
    usage: `list-audio --kind <${AUDIO_KINDS.join('|')}>`,
    summary: 'List the audio items of one library.',
    options: { kind: { type: 'string' } },
    async run(c) {
      const items = await listAudioItems(c.store, kindOf(c));
      for (const item of items)
        print(c, `${String(item.id).padStart(5)}  ${isolated(item.name)}${item.cover_image ? '' : '  (no cover)'}`);
      print(c, `${items.length} item${items.length === 1 ? '' : 's'}.`);
    },
  },
  'add-audio': {
    usage: `add-audio --kind <${AUDIO_KINDS.join('|')}> --name <name> [--description <text>] --file <audio> [--cover <image>]`,
    summary: 'Add an audio item (MP3, OGG, WAV, M4A/AAC, FLAC) with an optional cover image.',
    options: {
      kind: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string' },
      file: { type: 'string' },
      cover: { type: 'string' },
    },
    async run(c) {
      const kind = kindOf(c);
      const name = required(c, 'name');
      const [audio, cover] = await stageLocalFiles(c, [
        [required(c, 'file'), UPLOAD_LIMITS.audioBytes],
        [c.values.cover as string | undefined, UPLOAD_LIMITS.coverBytes],
      ]);
      const item = await createAudioItem(c.store, {
        kind,
        fields: { name, description: c.values.description ?? '' },
        audio,
        cover,
      });
      print(
        c,
        `Added ${kind} audio item "${isolated(item.name)}" (id ${item.id})${item.cover_image ? ' with a cover' : ''}.`,
      );
    },
  },
  'replace-audio': {
    usage: `replace-audio --kind <${AUDIO_KINDS.join('|')}> --name <name> [--file <audio>] [--cover <image>]`,
    summary: 'Replace the audio file and/or the cover of an item; the old files are removed.',
    options: {
      kind: { type: 'string' },
      name: { type: 'string' },
      file: { type: 'string' },
      cover: { type: 'string' },
    },
    async run(c) {
      const kind = kindOf(c);
      const id = await findAudioItemByName(c.store, kind, required(c, 'name'));
      const file = c.values.file as string | undefined;
      const coverFile = c.values.cover as string | undefined;
      if (!file && !coverFile) throw new CliError('Give --file, --cover or both.', EXIT.usage);
      const [audio, cover] = await stageLocalFiles(c, [
        [file, UPLOAD_LIMITS.audioBytes],
        [coverFile, UPLOAD_LIMITS.coverBytes],
      ]);
      const item = await replaceAudioFiles(c.store, kind, id, { audio, cover }, leftFilesLog(c));
      print(
        c,
        `Replaced the ${[audio && 'audio file', cover && 'cover'].filter(Boolean).join(' and ')} of "${isolated(item.name)}".`,
      );
    },
  },
  'remove-audio': {
    usage: `remove-audio --kind <${AUDIO_KINDS.join('|')}> --name <name>`,
    summary: 'Remove an audio item and its files.',
    options: { kind: { type: 'string' }, name: { type: 'string' } },
    async run(c) {
      const kind = kindOf(c);
      const id = await findAudioItemByName(c.store, kind, required(c, 'name'));
      const filesLog = leftFilesLog(c);
      const item = await deleteAudioItem(c.store, kind, id, filesLog);
      print(c, `Removed ${kind} audio item "${isolated(item.name)}"${filesLog.left ? '' : ' and its files'}.`);
    },
  },
  'add-app': {
    usage: 'add-app --version <version> [--description <text>] --file <installer>',
    summary: 'Add a desktop application installer (.exe, .msi, .dmg, .pkg, .zip, .AppImage, .deb).',
    options: { version: { type: 'string' }, description: { type: 'string' }, file: { type: 'string' } },
    async run(c) {
      const version = required(c, 'version');
      const file = required(c, 'file');
      const installer = await stageLocalFile(c, file, c.maxApplicationBytes);
      const created = await createApplication(c.store, {
        fields: { application_version: version, description: c.values.description ?? '' },
        fileName: path.basename(file),
        installer,
      });
      print(
        c,
        `Added desktop application ${created.application_version} (id ${created.id}, ${formatBytes(created.size_bytes ?? 0)}).`,
      );
    },
  },
  'remove-app': {
    usage: 'remove-app <id>',
    summary: 'Remove a desktop application and its installer file.',
    async run(c) {
      const filesLog = leftFilesLog(c);
      const removed = await deleteApplication(c.store, idArgument(c, 'desktop application', 'list-apps'), filesLog);
      print(
        c,
        `Removed desktop application ${removed.application_version} (id ${removed.id})${filesLog.left ? '' : ' and its file'}.`,
      );
    },
  },
  'list-apps': {
    usage: 'list-apps',
    summary: 'List desktop applications, newest first.',
    async run(c) {
      const apps = await listApplications(c.store);
      for (const app of apps) {
        print(
          c,
          `${String(app.id).padStart(5)}  ${app.application_version.padEnd(12)} ${formatBytes(app.size_bytes ?? 0).padStart(9)}  ${new URL(app.application_file).pathname}`,
        );
      }
      print(c, `${apps.length} application${apps.length === 1 ? '' : 's'}.`);
    },
  },
  jobs: {
    usage: 'jobs [--status <queued|running|done|failed|dead>[,…]]',
    summary:
      'Background jobs (account e-mails, the audio library, the hourly purge of ended sessions): counts by status, then the newest 100.',
    options: { status: { type: 'string' } },
    async run(c) {
      const status = c.values.status as string | undefined;
      const query = adminJobQuerySchema.safeParse({ status });
      if (!query.success) throw new CliError(`--status: ${query.error.issues[0]?.message ?? 'not valid'}`, EXIT.usage);
      const { counts, results } = await jobOverview(c.store.db, parseStatuses(query.data.status));
      print(
        c,
        Object.entries(counts)
          .map(([name, n]) => `${name} ${n}`)
          .join(', '),
      );
      for (const job of results) {
        const error = job.last_error ? `  ${job.last_error.split('\n')[0]}` : '';
        print(
          c,
          `${String(job.id).padStart(6)}  ${job.status.padEnd(7)} ${job.kind.padEnd(22)} ${job.attempts}/${job.max_attempts}  ${job.run_at}${error}`,
        );
      }
    },
  },
  'retry-job': {
    usage: 'retry-job <id>',
    summary: 'Run a failed or dead job again now, with all its attempts (the running server picks it up).',
    async run(c) {
      const id = idArgument(c, 'job', 'jobs');
      try {
        const job = await retryFailedJob(c.store.db, id);
        print(c, `Job ${job.id} (${job.kind}) is queued again.`);
      } catch (error) {
        if (error instanceof ApiError) throw new CliError(error.statusCode === 404 ? `No job ${id}.` : error.message);
        throw error;
      }
    },
  },
  ...PROGRAM_COMMANDS,
};
