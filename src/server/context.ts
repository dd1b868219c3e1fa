import type { Config } from './config';
import type { Database } from './db/client';
import type { TokenService } from './auth/tokens';
import { createTokenService } from './auth/tokens';
import { createAuthenticate, type Authenticate } from './auth/authenticate';
import { createMailer, type Mailer } from './mail/mailer';
import { createMediaUrls, type MediaUrls } from './media/urls';

/** What every module is given: configuration, the database and the shared services. */
export interface AppContext {
  config: Config;
  database: Database;
  tokens: TokenService;
  /** Pre-handlers for routes that need a signed-in user, or a staff user. */
  authenticate: Authenticate;
  authenticateStaff: Authenticate;
  /** Account e-mail: SMTP when configured, else the outbox folder. */
  mailer: Mailer;
  /** Signed URLs of media files, and their check. */
  media: MediaUrls;
}

export function createContext(config: Config, database: Database): AppContext {
  const tokens = createTokenService(config.secretKey, {
    access: config.tokens.accessTtlSeconds,
    refresh: config.tokens.refreshTtlSeconds,
  });
  return {
    config,
    database,
    tokens,
    authenticate: createAuthenticate(database.db, tokens),
    authenticateStaff: createAuthenticate(database.db, tokens, { staffOnly: true }),
    media: createMediaUrls(config.secretKey, config.publicUrl),
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logLinks: config.env !== 'production' }),
  };
}
