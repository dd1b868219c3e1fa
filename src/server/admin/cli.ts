import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config';
import { DataDirLockedError } from '../db/data-dir-lock';
import type { Database } from '../db/client';
import { openPreparedDatabase, type PreparedDatabase } from '../db/prepare';
import { ApiError } from '../http/errors';
import { createMediaStorage } from '../media/storage';
import { CliError, describeApiError, EXIT, type CliIo } from './cli-io';
import { COMMANDS } from './cli-commands';

// `npm run admin -- <command>`: the operator's front door to the same services the admin API uses.

const HELP = `Innerwave administration

Usage: npm run admin -- <command> [options]

Commands:
${Object.values(COMMANDS)
  .map((command) => `  ${command.usage}\n      ${command.summary}`)
  .join('\n')}

Run "npm run admin -- <command> --help" for one command.
The CLI uses DATA_DIR / DATABASE_URL like the server. With the embedded database (no DATABASE_URL)
the server must be stopped first; while it runs, use the admin screens at /admin instead.

Exit codes: 0 done, 1 refused (nothing was changed), 2 wrong usage, 3 database unavailable.`;

const LOCKED = (detail: string) =>
  `${detail}\nThe embedded database can be opened by one process at a time, and the Innerwave server is using it.\n` +
  'Stop the server and run this command again, or make the change in the admin screens at /admin while it runs ' +
  '(or run the server and the CLI on PostgreSQL with DATABASE_URL, which allows both at once).';

export interface CliDeps {
  /** An already open, migrated database (tests); otherwise the CLI opens the configured one. */
  database?: Database;
  env?: NodeJS.ProcessEnv;
}

/** Runs one command and answers its exit code; never throws. */
export async function runCli(argv: string[], io: CliIo, deps: CliDeps = {}): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${HELP}\n`);
    return name ? EXIT.ok : EXIT.usage;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr.write(`Unknown command "${name}".\n\n${HELP}\n`);
    return EXIT.usage;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\nUsage: npm run admin -- ${command.usage}\n`);
    return EXIT.usage;
  }
  if (parsed.values.help) {
    io.stdout.write(`Usage: npm run admin -- ${command.usage}\n  ${command.summary}\n`);
    return EXIT.ok;
  }

  let config: Config;
  let prepared: PreparedDatabase | undefined;
  let database = deps.database;
  try {
    config = loadConfig(deps.env);
    if (!database) {
      prepared = await openPreparedDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
      database = prepared.database;
    }
  } catch (error) {
    if (error instanceof DataDirLockedError) io.stderr.write(`${LOCKED(error.message)}\n`);
    else if (error instanceof ConfigError) io.stderr.write(`${error.message}\n`);
    else io.stderr.write(`Cannot open the database: ${(error as Error).message}\n`);
    return EXIT.unavailable;
  }

  try {
    const storage = createMediaStorage(config);
    await command.run({
      store: { db: database.db, files: storage.files, mediaUrl: storage.urls.url },
      io,
      maxApplicationBytes: config.maxApplicationBytes,
      stripe: config.stripe,
      values: parsed.values as Record<string, string | boolean | undefined>,
      positionals: parsed.positionals,
    });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr.write(
        `${error.message}${error.exitCode === EXIT.usage ? `\nUsage: npm run admin -- ${command.usage}` : ''}\n`,
      );
      return error.exitCode;
    }
    if (error instanceof ApiError) {
      io.stderr.write(`${describeApiError(error)}\nNothing was changed.\n`);
      return EXIT.refused;
    }
    io.stderr.write(`Failed: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT.refused;
  } finally {
    await prepared?.close().catch(() => undefined);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const io: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  process.exitCode = await runCli(process.argv.slice(2), io);
}
