import type { Config } from './config';
import type { Database } from './db/client';
import type { TokenService } from './auth/tokens';
import { createTokenService } from './auth/tokens';
import { createAuthenticate, type Authenticate } from './auth/authenticate';
import { createSessionLookup, type SessionLookup } from './auth/sessions';
import { createMailer, type Mailer } from './mail/mailer';
import type { MediaUrls } from './media/urls';
import type { MediaStore } from './media/store';
import { createMediaStorage } from './media/storage';
import { localNotices, type Notices } from './cluster/notices';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';

type RateLimitStore = FastifyRateLimitStoreCtor;

/** What every module is given: configuration, the database and the shared services. */
export interface AppContext {
  config: Config;
  database: Database;
  tokens: TokenService;
  /** The live session behind a token (kept in memory, cleared by notices). */
  sessions: SessionLookup;
  /** Pre-handlers for routes that need a signed-in user, or a staff user. */
  authenticate: Authenticate;
  authenticateStaff: Authenticate;
  /** Account e-mail: SMTP when configured, else the outbox folder. */
  mailer: Mailer;
  /** Signed URLs of media files (the app's, or the storage's own), and their check. */
  media: MediaUrls;
  /** The media files: DATA_DIR/media, or S3-compatible storage. */
  mediaFiles: MediaStore;
  /** Changes every worker must hear of before the next request (sessions ended, content edited). */
  notices: Notices;
  /** Where @fastify/rate-limit keeps its counters: Redis, or the primary's in a cluster; else this process's. */
  rateLimitStore: RateLimitStore | undefined;
}

export interface ContextOptions {
  notices?: Notices;
  rateLimitStore?: RateLimitStore;
}

export function createContext(config: Config, database: Database, options: ContextOptions = {}): AppContext {
  const tokens = createTokenService(config.secretKey, {
    access: config.tokens.accessTtlSeconds,
    refresh: config.tokens.refreshTtlSeconds,
  });
  const notices = options.notices ?? localNotices();
  const sessions = createSessionLookup(database.db, notices);
  const storage = createMediaStorage(config);
  return {
    config,
    database,
    tokens,
    sessions,
    authenticate: createAuthenticate(sessions, tokens),
    authenticateStaff: createAuthenticate(sessions, tokens, { staffOnly: true }),
    media: storage.urls,
    mediaFiles: storage.files,
    notices,
    rateLimitStore: options.rateLimitStore,
    mailer: createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      dataDir: config.dataDir,
      logLinks: config.env !== 'production',
    }),
  };
}
