import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, supportAddressWarning } from './config';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'innerwave-config-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('has defaults that need nothing installed', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      env: 'development',
      databaseUrl: undefined,
      databasePoolSize: 4,
      redisUrl: undefined,
      smtpUrl: undefined,
      supportEmail: 'support@innerwave.app',
    });
    expect(loadConfig({ DATA_DIR: dataDir, SUPPORT_EMAIL: 'help@example.org' }).supportEmail).toBe('help@example.org');
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
    expect(config.tokens.accessTtlSeconds).toBe(300);
    expect(config.tokens.refreshTtlSeconds).toBe(86_400);
  });

  it('names every wrong variable in one message', () => {
    const run = () =>
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        DATABASE_POOL_SIZE: '0',
        SMTP_URL: 'http://mail',
        REDIS_URL: 'localhost:6379',
        PUBLIC_URL: 'nope',
        SUPPORT_EMAIL: 'support',
      });
    expect(run).toThrow(ConfigError);
    try {
      run();
    } catch (error) {
      const message = (error as Error).message;
      for (const name of [
        'PORT',
        'DATABASE_URL',
        'DATABASE_POOL_SIZE',
        'SMTP_URL',
        'REDIS_URL',
        'PUBLIC_URL',
        'SUPPORT_EMAIL',
      ])
        expect(message).toContain(name);
    }
  });

  it('refuses to start in production without a secret key', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tempDir() })).toThrow(/SECRET_KEY/);
    expect(() => loadConfig({ NODE_ENV: 'production', SECRET_KEY: 'short', DATA_DIR: tempDir() })).toThrow(
      /SECRET_KEY/,
    );
  });

  it('refuses an all-addresses login limit that one client could reach', () => {
    const limits = (all: string) =>
      loadConfig({
        DATA_DIR: tempDir(),
        AUTH_RATE_LIMIT_PER_EMAIL: '10',
        AUTH_RATE_LIMIT_PER_EMAIL_ALL_ADDRESSES: all,
      });
    expect(() => limits('20')).toThrow(/AUTH_RATE_LIMIT_PER_EMAIL_ALL_ADDRESSES: must be more than twice/);
    expect(limits('21').authRateLimit.perEmailAllAddresses).toBe(21);
    expect(loadConfig({ DATA_DIR: tempDir(), AUTH_RATE_LIMIT_PER_EMAIL: '7' }).authRateLimit.perEmailAllAddresses).toBe(
      70,
    );
  });

  it('generates a secret on first run and keeps it in the data folder', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir }).secretKey;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dataDir, 'secret-key'), 'utf8').trim()).toBe(first);
    expect(loadConfig({ DATA_DIR: dataDir }).secretKey).toBe(first);
  });

  it('treats empty variables as unset and trims a trailing slash off PUBLIC_URL', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), PORT: '', PUBLIC_URL: 'https://innerwave.example/' });
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('https://innerwave.example');
  });
});

describe('the support address', () => {
  it('warns at start when SUPPORT_EMAIL is not the address the pages show, and says both', () => {
    const dataDir = tempDir();
    expect(supportAddressWarning(loadConfig({ DATA_DIR: dataDir }))).toBeUndefined();
    expect(supportAddressWarning(loadConfig({ DATA_DIR: dataDir, SUPPORT_EMAIL: 'Support@Innerwave.app' }))).toBe(
      undefined,
    );
    const warning = supportAddressWarning(loadConfig({ DATA_DIR: dataDir, SUPPORT_EMAIL: 'help@example.org' }));
    expect(warning).toContain('SUPPORT_EMAIL is help@example.org, but the pages show support@innerwave.app');
    expect(warning).toContain('src/shared/constants.ts');
  });
});

describe('S3-compatible media storage', () => {
  const s3 = {
    S3_URL: 'http://127.0.0.1:9000/',
    S3_BUCKET: 'innerwave-media',
    S3_ACCESS_KEY_ID: 'key',
    S3_SECRET_ACCESS_KEY: 'secret',
  };

  it('is off unless configured: media stay in the data folder', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).s3).toBeUndefined();
  });

  it('takes the endpoint, bucket and credentials, with us-east-1 and virtual-host style by default', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), ...s3 }).s3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'innerwave-media',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      region: 'us-east-1',
      forcePathStyle: false,
    });
    const tuned = loadConfig({ DATA_DIR: tempDir(), ...s3, S3_REGION: 'eu-west-3', S3_FORCE_PATH_STYLE: 'true' }).s3;
    expect(tuned).toMatchObject({ region: 'eu-west-3', forcePathStyle: true });
  });

  it('refuses a partial configuration, naming each missing variable', () => {
    const { S3_BUCKET: _bucket, S3_SECRET_ACCESS_KEY: _secret, ...partial } = s3;
    const run = () => loadConfig({ DATA_DIR: tempDir(), ...partial });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(/S3_BUCKET: required when any of S3_URL, S3_BUCKET/);
    expect(run).toThrow(/S3_SECRET_ACCESS_KEY: required/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), S3_REGION: 'eu-west-3' })).toThrow(
      /S3_REGION: set only with S3_URL/,
    );
  });

  it('refuses malformed values with a message for each', () => {
    const run = () =>
      loadConfig({
        DATA_DIR: tempDir(),
        ...s3,
        S3_URL: 'ftp://storage',
        S3_BUCKET: 'Innerwave_Media',
        S3_FORCE_PATH_STYLE: 'yes',
      });
    expect(run).toThrow(/S3_URL: must be the storage endpoint/);
    expect(run).toThrow(/S3_BUCKET: must be a bucket name/);
    expect(run).toThrow(/S3_FORCE_PATH_STYLE: must be true or false/);
  });
});

describe('Stripe billing', () => {
  const stripe = {
    STRIPE_SECRET_KEY: 'sk_test_123',
    STRIPE_WEBHOOK_SECRET: 'whsec_abc',
    STRIPE_PRICE_INTERMEDIATE: 'price_intermediate',
    STRIPE_PRICE_PRO: 'price_pro',
  };

  it('is off unless configured: the server runs without payments', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).stripe).toBeUndefined();
  });

  it('takes the keys and one price per paid plan, with Stripe’s own API unless STRIPE_API_URL says otherwise', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), ...stripe }).stripe).toEqual({
      secretKey: 'sk_test_123',
      webhookSecret: 'whsec_abc',
      prices: { intermediate: 'price_intermediate', pro: 'price_pro' },
      api: undefined,
    });
    const standIn = loadConfig({ DATA_DIR: tempDir(), ...stripe, STRIPE_API_URL: 'http://127.0.0.1:4101' }).stripe;
    expect(standIn?.api).toEqual({ protocol: 'http', host: '127.0.0.1', port: 4101 });
    const https = loadConfig({ DATA_DIR: tempDir(), ...stripe, STRIPE_API_URL: 'https://stripe.internal' }).stripe;
    expect(https?.api).toEqual({ protocol: 'https', host: 'stripe.internal', port: 443 });
  });

  it('refuses a partial configuration, naming each missing variable', () => {
    const { STRIPE_WEBHOOK_SECRET: _secret, STRIPE_PRICE_PRO: _pro, ...partial } = stripe;
    const run = () => loadConfig({ DATA_DIR: tempDir(), ...partial });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(/STRIPE_WEBHOOK_SECRET: required when any of STRIPE_SECRET_KEY/);
    expect(run).toThrow(/STRIPE_PRICE_PRO: required when any of/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), STRIPE_API_URL: 'http://127.0.0.1:4101' })).toThrow(
      /STRIPE_API_URL: set only with STRIPE_SECRET_KEY/,
    );
    expect(() => loadConfig({ DATA_DIR: tempDir(), ...stripe, STRIPE_PRICE_PRO: 'price_intermediate' })).toThrow(
      /STRIPE_PRICE_PRO: must differ from STRIPE_PRICE_INTERMEDIATE/,
    );
  });

  it('refuses malformed values with a message for each', () => {
    const run = () =>
      loadConfig({
        DATA_DIR: tempDir(),
        STRIPE_SECRET_KEY: 'pk_test_123',
        STRIPE_WEBHOOK_SECRET: 'abc',
        STRIPE_PRICE_INTERMEDIATE: 'prod_1',
        STRIPE_PRICE_PRO: 'price_pro',
        STRIPE_API_URL: 'ftp://127.0.0.1:4101',
      });
    expect(run).toThrow(/STRIPE_SECRET_KEY: must be a Stripe secret key/);
    expect(run).toThrow(/STRIPE_WEBHOOK_SECRET: must be the webhook endpoint's signing secret/);
    expect(run).toThrow(/STRIPE_PRICE_INTERMEDIATE: must be a Stripe price id/);
    expect(run).toThrow(/STRIPE_API_URL: must be an absolute http\(s\) URL/);
  });
});

describe('backups on a schedule', () => {
  const message = (env: NodeJS.ProcessEnv) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('accepted');
  };

  it('is off unless BACKUP_DIR is set, then daily keeping 7, or as set', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).backupSchedule).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dataDir, BACKUP_DIR: path.join(dataDir, 'backups') }).backupSchedule).toEqual({
      dir: path.join(dataDir, 'backups'),
      everySeconds: 86_400,
      keep: 7,
    });
    const set = loadConfig({ DATA_DIR: dataDir, BACKUP_DIR: 'b', BACKUP_EVERY_SECONDS: '3600', BACKUP_KEEP: '48' });
    expect(set.backupSchedule).toEqual({ dir: path.resolve('b'), everySeconds: 3600, keep: 48 });
  });

  it('refuses a wrong period or count, and either without BACKUP_DIR, naming each', () => {
    const dataDir = tempDir();
    const dir = path.join(dataDir, 'backups');
    expect(message({ DATA_DIR: dataDir, BACKUP_DIR: dir, BACKUP_EVERY_SECONDS: '1d', BACKUP_KEEP: '0' })).toBe(
      'Invalid configuration:\n  BACKUP_EVERY_SECONDS: must be a whole number of seconds\n  BACKUP_KEEP: must be at least 1',
    );
    expect(message({ DATA_DIR: dataDir, BACKUP_DIR: dir, BACKUP_EVERY_SECONDS: '59', BACKUP_KEEP: '2.5' })).toBe(
      'Invalid configuration:\n  BACKUP_EVERY_SECONDS: must be at least 60 (a minute)\n  BACKUP_KEEP: must be a whole number',
    );
    expect(message({ DATA_DIR: dataDir, BACKUP_DIR: dir, BACKUP_EVERY_SECONDS: '604801' })).toBe(
      'Invalid configuration:\n  BACKUP_EVERY_SECONDS: must be at most 604800 (a week)',
    );
    expect(message({ DATA_DIR: dataDir, BACKUP_EVERY_SECONDS: '3600', BACKUP_KEEP: '3' })).toBe(
      'Invalid configuration:\n  BACKUP_EVERY_SECONDS: set only with BACKUP_DIR\n  BACKUP_KEEP: set only with BACKUP_DIR',
    );
  });

  it('takes BACKUP_AT as a time of day in UTC, daily, and refuses a time that is none, one beside a period, or one alone', () => {
    const dataDir = tempDir();
    const dir = path.join(dataDir, 'backups');
    expect(
      loadConfig({ DATA_DIR: dataDir, BACKUP_DIR: dir, BACKUP_AT: '03:30', BACKUP_KEEP: '3' }).backupSchedule,
    ).toEqual({ dir, everySeconds: 86_400, at: '03:30', keep: 3 });
    expect(loadConfig({ DATA_DIR: dataDir, BACKUP_DIR: dir, BACKUP_AT: '00:00' }).backupSchedule?.at).toBe('00:00');
    expect(loadConfig({ DATA_DIR: dataDir, BACKUP_DIR: dir, BACKUP_AT: '23:59' }).backupSchedule?.at).toBe('23:59');
    for (const wrong of ['24:00', '3:00', '03:60', '03:00:00', '03.00', 'night', '03:00Z'])
      expect(message({ DATA_DIR: dataDir, BACKUP_DIR: dir, BACKUP_AT: wrong }), wrong).toBe(
        'Invalid configuration:\n  BACKUP_AT: must be a time of day in UTC as HH:MM, from 00:00 to 23:59',
      );
    expect(message({ DATA_DIR: dataDir, BACKUP_DIR: dir, BACKUP_AT: '03:00', BACKUP_EVERY_SECONDS: '3600' })).toBe(
      'Invalid configuration:\n  BACKUP_AT: set either BACKUP_AT (daily at that time, UTC) or BACKUP_EVERY_SECONDS ' +
        '(a period), not both',
    );
    expect(message({ DATA_DIR: dataDir, BACKUP_AT: '03:00' })).toBe(
      'Invalid configuration:\n  BACKUP_AT: set only with BACKUP_DIR',
    );
  });

  it('refuses a folder a restore replaces, and a schedule on PostgreSQL, whose database pg_dump backs up', () => {
    const dataDir = tempDir();
    expect(message({ DATA_DIR: dataDir, BACKUP_DIR: path.join(dataDir, 'media', 'backups') })).toBe(
      `Invalid configuration:\n  BACKUP_DIR: must not be inside DATA_DIR/media (${path.join(dataDir, 'media', 'backups')})`,
    );
    expect(message({ DATA_DIR: dataDir, BACKUP_DIR: path.join(dataDir, 'db') })).toMatch(/inside DATA_DIR\/db/);
    expect(
      loadConfig({ DATA_DIR: dataDir, BACKUP_DIR: path.join(dataDir, 'database-backups') }).backupSchedule,
    ).toBeDefined();
    expect(message({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://db/app', BACKUP_DIR: path.join(dataDir, 'b') })).toBe(
      'Invalid configuration:\n  BACKUP_DIR: scheduled backups are of the embedded database; with DATABASE_URL back ' +
        'the database up with pg_dump (and the media with "npm run backup")',
    );
  });
});
