import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { SUPPORT } from '@shared/constants';

// The only module that reads the environment (a lint rule keeps it so).

const durationSeconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(4),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/[^/?#]/, { error: 'must be a redis:// or rediss:// URL' })
    .optional(),
  PUBLIC_URL: z.url({ error: 'must be an absolute http(s) URL' }).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, { error: 'must be an smtp:// or smtps:// URL' })
    .optional(),
  SECRET_KEY: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ACCESS_TOKEN_TTL_SECONDS: durationSeconds(5 * 60),
  REFRESH_TOKEN_TTL_SECONDS: durationSeconds(24 * 60 * 60),
  ACTIVATION_TOKEN_TTL_SECONDS: durationSeconds(3 * 24 * 60 * 60),
  RESET_TOKEN_TTL_SECONDS: durationSeconds(60 * 60),
  MAIL_FROM: z.string().min(3).default('Innerwave <no-reply@innerwave.app>'),
  SUPPORT_EMAIL: z.email({ error: 'must be an e-mail address' }).default(SUPPORT.defaultEmail),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: durationSeconds(15 * 60),
  AUTH_RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().positive().default(50),
  AUTH_RATE_LIMIT_PER_EMAIL: z.coerce.number().int().positive().default(10),
  AUTH_RATE_LIMIT_PER_EMAIL_ALL_ADDRESSES: z.coerce.number().int().positive().optional(),
  MAX_APPLICATION_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(500 * 1024 * 1024),
  REQUEST_TIMEOUT_SECONDS: durationSeconds(30),
  MIN_UPLOAD_BYTES_PER_SECOND: z.coerce
    .number()
    .int()
    .min(0)
    .default(8 * 1024),
  MAX_CONNECTIONS: z.coerce.number().int().min(0).default(2048),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).default(30),
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(1000),
  OVERLOAD_MAX_HEAP_USED_MB: z.coerce.number().int().min(0).default(1024),
  OVERLOAD_MAX_IN_FLIGHT: z.coerce.number().int().min(0).default(64),
  OVERLOAD_MAX_DB_QUEUE: z.coerce.number().int().min(0).default(64),
  RETRY_AFTER_SECONDS: durationSeconds(5),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d+|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/, {
      error: 'must be true, false, a hop count, or comma-separated addresses/CIDRs',
    })
    .optional(),
  HSTS_MAX_AGE_SECONDS: z.coerce.number().int().min(0).optional(),
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  S3_URL: z.url({ protocol: /^https?$/, error: 'must be the storage endpoint, an absolute http(s) URL' }).optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'must be a bucket name (3 to 63 of a-z, 0-9, . and -)' })
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, { error: 'must be a region name such as us-east-1' })
    .optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\S+$/, { error: 'must be a Stripe secret key (sk_live_..., sk_test_... or rk_...)' })
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\S+$/, { error: "must be the webhook endpoint's signing secret (whsec_...)" })
    .optional(),
  STRIPE_PRICE_INTERMEDIATE: z
    .string()
    .regex(/^price_\S+$/, { error: 'must be a Stripe price id (price_...)' })
    .optional(),
  STRIPE_PRICE_PRO: z
    .string()
    .regex(/^price_\S+$/, { error: 'must be a Stripe price id (price_...)' })
    .optional(),
  STRIPE_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL such as http://127.0.0.1:12111' })
    .optional(),
  BACKUP_DIR: z.string().min(1).optional(),
  // A minute at least: every backup pauses the embedded database while it copies it (decision 128). A week at most.
  BACKUP_EVERY_SECONDS: z.coerce
    .number({ error: 'must be a whole number of seconds' })
    .int({ error: 'must be a whole number of seconds' })
    .min(60, { error: 'must be at least 60 (a minute)' })
    .max(7 * 24 * 60 * 60, { error: 'must be at most 604800 (a week)' })
    .optional(),
  // UTC, as the backups' names and the log say their times (docs/decisions/154-backups-at-a-time-of-day-and-their-state-for-staff.md).
  BACKUP_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be a time of day in UTC as HH:MM, from 00:00 to 23:59' })
    .optional(),
  BACKUP_KEEP: z.coerce
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(1000, { error: 'must be at most 1000' })
    .optional(),
});

/** S3-compatible storage is configured by all of these or none. */
const S3_REQUIRED = ['S3_URL', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
const S3_OPTIONAL = ['S3_REGION', 'S3_FORCE_PATH_STYLE'] as const;
/** Payments with Stripe are configured by all of these or none (decisions §9). */
const STRIPE_REQUIRED = [
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_PRICE_INTERMEDIATE',
  'STRIPE_PRICE_PRO',
] as const;

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL connections each worker opens at start and keeps. */
  databasePoolSize: number;
  /** Rate-limit counters and notices across servers; unset: kept by this server's primary. */
  redisUrl: string | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  /** The From header of every mail. */
  mailFrom: string;
  /** Where the support form's requests are mailed. */
  supportEmail: string;
  secretKey: string;
  logLevel: string;
  /** Worker processes serving HTTP (one per core unless set). */
  webConcurrency: number;
  /** The largest desktop-application installer an admin may upload. */
  maxApplicationBytes: number;
  tokens: {
    accessTtlSeconds: number;
    refreshTtlSeconds: number;
    activationTtlSeconds: number;
    resetTtlSeconds: number;
  };
  http: {
    /** Headers, and bodies other than uploads, must arrive within this time. */
    requestTimeoutSeconds: number;
    /** After the request timeout, an upload must keep arriving at least this fast (0: no bound). */
    minUploadBytesPerSecond: number;
    /** Open connections at most (0: no cap). */
    maxConnections: number;
    /** In-flight requests get this long after SIGTERM before their connections are closed. */
    shutdownGraceSeconds: number;
    /** Fastify's trustProxy: the proxies in front, so client addresses are the real ones. */
    trustProxy: boolean | number | string[];
    /** Strict-Transport-Security max-age (0: no header). */
    hstsMaxAgeSeconds: number;
  };
  /** Load shedding: past any bound (0: unchecked), new requests get 503 with Retry-After. */
  overload: {
    maxEventLoopDelayMs: number;
    maxHeapUsedBytes: number;
    /** Requests accepted and not yet answered. */
    maxInFlight: number;
    maxDatabaseQueue: number;
    retryAfterSeconds: number;
  };
  /**
   * Login, signup, reset and activation: attempts per window, per client address, per e-mail from one
   * client address (and mails per e-mail), and per e-mail from all client addresses.
   */
  authRateLimit: {
    windowSeconds: number;
    perAddress: number;
    perEmail: number;
    perEmailAllAddresses: number;
  };
  /** Media in S3-compatible object storage; undefined: files under DATA_DIR/media. */
  s3: S3Config | undefined;
  /** Payments with Stripe; undefined: the billing calls answer 503 and operators set plans. */
  stripe: StripeConfig | undefined;
  /** Backups of the embedded database taken by the primary on a schedule; undefined: none (decision 147). */
  backupSchedule: BackupSchedule | undefined;
}

export interface BackupSchedule {
  /** Where the backups are written; only files of the schedule's own name are ever removed from it. */
  dir: string;
  /** The period: a day when `at` is set. */
  everySeconds: number;
  /** Daily at this time of day, UTC (`HH:MM`), instead of every `everySeconds` from the last backup. */
  at?: string;
  /** How many of the schedule's backups are kept; older ones are removed after each new one. */
  keep: number;
}

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** The Stripe price of each paid plan; a subscription's price says its plan. */
  prices: { intermediate: string; pro: string };
  /** Another API server than Stripe's (the tests' stand-in); undefined: api.stripe.com. */
  api: { protocol: 'http' | 'https'; host: string; port: number } | undefined;
}

export interface S3Config {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key` (MinIO and most stand-ins need it). */
  forcePathStyle: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Treats empty variables as unset, as shells and .env files often leave them. */
function withoutEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => !!entry[1]));
}

/**
 * Said at every start when SUPPORT_EMAIL is not the address the pages show (SUPPORT.defaultEmail, built into
 * the web app and its pre-rendered pages): people who write to the address they read reach that one, not
 * this, so an operator who changed one learns of the other (docs/product/accounts.md#support).
 */
export function supportAddressWarning(config: Pick<Config, 'supportEmail'>): string | undefined {
  if (config.supportEmail.toLowerCase() === SUPPORT.defaultEmail) return undefined;
  return `SUPPORT_EMAIL is ${config.supportEmail}, but the pages show ${SUPPORT.defaultEmail} (SUPPORT.defaultEmail in src/shared/constants.ts, built into the web app): the support form's requests go to the first, mail people write themselves to the second. Change both to move support.`;
}

/** Validates the environment and names every wrong variable in one message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  if (e.NODE_ENV === 'production' && !e.SECRET_KEY) {
    throw new ConfigError('Invalid configuration:\n  SECRET_KEY: required in production (at least 32 characters)');
  }
  // One client adds at most twice its own limit to an account's count (two windows overlapping): at or
  // under that, one client could lock a person's login again (docs/product/accounts.md#rate-limits).
  const perEmail = e.AUTH_RATE_LIMIT_PER_EMAIL;
  if (
    e.AUTH_RATE_LIMIT_PER_EMAIL_ALL_ADDRESSES !== undefined &&
    e.AUTH_RATE_LIMIT_PER_EMAIL_ALL_ADDRESSES <= 2 * perEmail
  ) {
    throw new ConfigError(
      `Invalid configuration:\n  AUTH_RATE_LIMIT_PER_EMAIL_ALL_ADDRESSES: must be more than twice AUTH_RATE_LIMIT_PER_EMAIL (${perEmail}), or one client could lock an account`,
    );
  }
  const s3 = s3Config(e);
  const stripe = stripeConfig(e);
  const backupSchedule = backupScheduleConfig(e, dataDir);
  const host = e.HOST;
  const urlHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return {
    env: e.NODE_ENV,
    host,
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    redisUrl: e.REDIS_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://${urlHost}:${e.PORT}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    secretKey: e.SECRET_KEY ?? generatedSecret(dataDir),
    logLevel: e.LOG_LEVEL,
    webConcurrency: e.WEB_CONCURRENCY ?? availableParallelism(),
    maxApplicationBytes: e.MAX_APPLICATION_BYTES,
    tokens: {
      accessTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
      refreshTtlSeconds: e.REFRESH_TOKEN_TTL_SECONDS,
      activationTtlSeconds: e.ACTIVATION_TOKEN_TTL_SECONDS,
      resetTtlSeconds: e.RESET_TOKEN_TTL_SECONDS,
    },
    http: {
      requestTimeoutSeconds: e.REQUEST_TIMEOUT_SECONDS,
      minUploadBytesPerSecond: e.MIN_UPLOAD_BYTES_PER_SECOND,
      maxConnections: e.MAX_CONNECTIONS,
      shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
      trustProxy: parseTrustProxy(e.TRUST_PROXY),
      hstsMaxAgeSeconds: e.HSTS_MAX_AGE_SECONDS ?? (e.NODE_ENV === 'production' ? 365 * 24 * 60 * 60 : 0),
    },
    overload: {
      maxEventLoopDelayMs: e.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS,
      maxHeapUsedBytes: e.OVERLOAD_MAX_HEAP_USED_MB * 1024 * 1024,
      maxInFlight: e.OVERLOAD_MAX_IN_FLIGHT,
      maxDatabaseQueue: e.OVERLOAD_MAX_DB_QUEUE,
      retryAfterSeconds: e.RETRY_AFTER_SECONDS,
    },
    authRateLimit: {
      windowSeconds: e.AUTH_RATE_LIMIT_WINDOW_SECONDS,
      perAddress: e.AUTH_RATE_LIMIT_PER_ADDRESS,
      perEmail: e.AUTH_RATE_LIMIT_PER_EMAIL,
      // Far more than one client address can reach in a window (docs/product/accounts.md#rate-limits).
      perEmailAllAddresses: e.AUTH_RATE_LIMIT_PER_EMAIL_ALL_ADDRESSES ?? 10 * e.AUTH_RATE_LIMIT_PER_EMAIL,
    },
    s3,
    stripe,
    backupSchedule,
  };
}

/**
 * BACKUP_DIR turns the schedule on; the period (or the time of day) and the count only beside it. Refused with DATABASE_URL: the backup
 * is the embedded database's, and on PostgreSQL pg_dump is (docs/decisions/147-backups-on-a-schedule-kept-to-a-count.md).
 */
function backupScheduleConfig(e: z.infer<typeof envSchema>, dataDir: string): BackupSchedule | undefined {
  const lines: string[] = [];
  if (!e.BACKUP_DIR) {
    for (const name of ['BACKUP_EVERY_SECONDS', 'BACKUP_AT', 'BACKUP_KEEP'] as const)
      if (e[name] !== undefined) lines.push(`  ${name}: set only with BACKUP_DIR`);
  } else {
    const dir = path.resolve(e.BACKUP_DIR);
    if (e.DATABASE_URL)
      lines.push(
        '  BACKUP_DIR: scheduled backups are of the embedded database; with DATABASE_URL back the database up with ' +
          'pg_dump (and the media with "npm run backup")',
      );
    // A restore replaces these folders whole, and the backups would be backed up into the next one.
    for (const part of ['db', 'media']) {
      const inside = path.relative(path.join(dataDir, part), dir);
      if (!inside.startsWith('..') && !path.isAbsolute(inside))
        lines.push(`  BACKUP_DIR: must not be inside DATA_DIR/${part} (${dir})`);
    }
    // One rule for when: a time of day, or a period from the last backup; both would leave one of them unkept.
    if (e.BACKUP_AT && e.BACKUP_EVERY_SECONDS !== undefined)
      lines.push(
        '  BACKUP_AT: set either BACKUP_AT (daily at that time, UTC) or BACKUP_EVERY_SECONDS (a period), not both',
      );
    if (lines.length === 0)
      return e.BACKUP_AT
        ? { dir, everySeconds: 24 * 60 * 60, at: e.BACKUP_AT, keep: e.BACKUP_KEEP ?? 7 }
        : { dir, everySeconds: e.BACKUP_EVERY_SECONDS ?? 24 * 60 * 60, keep: e.BACKUP_KEEP ?? 7 };
  }
  if (lines.length) throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  return undefined;
}

/** All four Stripe variables or none; STRIPE_API_URL only beside them. */
function stripeConfig(e: z.infer<typeof envSchema>): StripeConfig | undefined {
  const missing = STRIPE_REQUIRED.filter((name) => !e[name]);
  const lines =
    missing.length === STRIPE_REQUIRED.length
      ? e.STRIPE_API_URL
        ? [`  STRIPE_API_URL: set only with ${STRIPE_REQUIRED.join(', ')}`]
        : []
      : missing.map((name) => `  ${name}: required when any of ${STRIPE_REQUIRED.join(', ')} is set`);
  if (e.STRIPE_PRICE_INTERMEDIATE && e.STRIPE_PRICE_INTERMEDIATE === e.STRIPE_PRICE_PRO)
    lines.push('  STRIPE_PRICE_PRO: must differ from STRIPE_PRICE_INTERMEDIATE (a price says its plan)');
  if (lines.length) throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret } = e;
  const { STRIPE_PRICE_INTERMEDIATE: intermediate, STRIPE_PRICE_PRO: pro } = e;
  if (!secretKey || !webhookSecret || !intermediate || !pro) return undefined;
  return { secretKey, webhookSecret, prices: { intermediate, pro }, api: stripeApi(e.STRIPE_API_URL) };
}

function stripeApi(value: string | undefined): StripeConfig['api'] {
  if (!value) return undefined;
  const url = new URL(value);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { protocol, host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)) };
}

/** All four S3 variables or none; the region and path style only beside them. */
function s3Config(e: z.infer<typeof envSchema>): S3Config | undefined {
  const { S3_URL: endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretKey } = e;
  if (endpoint && bucket && accessKeyId && secretKey)
    return {
      endpoint: endpoint.replace(/\/+$/, ''),
      bucket,
      accessKeyId,
      secretAccessKey: secretKey,
      region: e.S3_REGION ?? 'us-east-1',
      forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
    };
  const missing = S3_REQUIRED.filter((name) => !e[name]);
  const lines =
    missing.length < S3_REQUIRED.length
      ? missing.map((name) => `  ${name}: required when any of ${S3_REQUIRED.join(', ')} is set`)
      : S3_OPTIONAL.filter((name) => e[name]).map((name) => `  ${name}: set only with ${S3_REQUIRED.join(', ')}`);
  if (lines.length) throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  return undefined;
}

/** `true`/`false`, a hop count, or the proxies' addresses and CIDR ranges. */
function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((entry) => entry.trim());
}

/** Outside production a secret is generated on first run and kept in the data folder. */
function generatedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret-key');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    try {
      writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      // Another process wrote it first: use theirs.
      return readFileSync(file, 'utf8').trim();
    }
  }
}
