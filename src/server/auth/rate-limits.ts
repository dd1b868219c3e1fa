import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { RateLimitCounters } from '../cluster/rate-limit-store';
import { ApiError, tooManyRequests } from '../http/errors';

// Login, signup, reset, activation (and its resend) and the calls that check the current password are
// limited per client address and per account (docs/product/accounts.md#rate-limits): the address limit
// slows one machine trying many accounts, the account limit many machines trying one.
// Counters live in the rate-limit plugin's store: Redis when configured (every server counts once), else
// the primary's, for all its workers (docs/decisions/001-workers-share-state-through-the-primary.md,
// 014-redis-or-listen-notify-between-servers.md). Keys name their limiter: the limiters share a key space.
// A login's account counter counts failures only: the attempt is counted before the password is checked,
// so guesses sent together cannot all pass, and given back when it was right. An e-mailed link's account
// counter (its `uid`) counts only links refused, after the check: its token cannot be guessed, and a count
// taken before let anyone spend a person's attempts and have their real link refused.

export type LimitedAction =
  'login' | 'signup' | 'reset' | 'activation' | 'resend' | 'current-password' | 'email-change';

export interface AuthRateLimits {
  /** Counts one attempt; throws 429 with Retry-After when the address or the account is over its limit. */
  count(request: FastifyRequest, action: LimitedAction, account?: string): Promise<void>;
  /** Gives the account back the attempt just counted (the address keeps it): it did not fail. */
  refund(request: FastifyRequest, action: LimitedAction, account: string): Promise<void>;
  /**
   * Runs the check of an e-mailed link (`uid` and `token`), the address's attempt counted first: a link refused
   * as wrong counts against its account, past whose limit a wrong one is answered `429`; a right one is never
   * refused by that count.
   */
  checkLink<T>(request: FastifyRequest, action: LimitedAction, uid: string, check: () => Promise<T>): Promise<T>;
}

/** A refusal of the link itself (its account or its token), as opposed to what was sent with it. */
const refusesLink = (error: unknown) =>
  error instanceof ApiError && error.statusCode === 400 && ('uid' in error.body || 'token' in error.body);

export function createAuthRateLimits(
  app: FastifyInstance,
  counters: RateLimitCounters,
  settings: Config['authRateLimit'],
): AuthRateLimits {
  const timeWindow = settings.windowSeconds * 1000;
  // The key of the attempt being counted; the plugin asks for it through keyGenerator.
  const keys = new WeakMap<FastifyRequest, string>();
  const keyOf = (request: FastifyRequest) => keys.get(request) ?? request.ip;
  const perAddress = app.createRateLimit({ max: settings.perAddress, timeWindow, keyGenerator: keyOf });
  const perAccount = app.createRateLimit({ max: settings.perEmail, timeWindow, keyGenerator: keyOf });

  // The limiter reads its key (keyGenerator) synchronously when called, so two may be started at once.
  const start = (limiter: typeof perAddress, request: FastifyRequest, key: string) => {
    keys.set(request, key);
    return limiter(request);
  };
  type Verdict = Awaited<ReturnType<typeof perAddress>>;
  const refused = (verdict: Verdict): verdict is Extract<Verdict, { isAllowed: false }> =>
    !verdict.isAllowed && verdict.isExceeded;

  const accountKey = (action: LimitedAction, account: string) => `${action}|account|${account.trim().toLowerCase()}`;

  // A counter that cannot be reached only costs the account one attempt.
  const refund: AuthRateLimits['refund'] = async (request, action, account) => {
    await counters
      .refund(accountKey(action, account))
      .catch((error: unknown) => request.log.warn({ err: error }, 'rate-limit counter not given back'));
  };

  const count: AuthRateLimits['count'] = async (request, action, account) => {
    // Both counters at once: with the primary's counters they cross as one message (a login's busiest
    // hop after the hash), with Redis's in one round trip.
    const [address, forAccount] = await Promise.all([
      start(perAddress, request, `${action}|address|${request.ip}`),
      account ? start(perAccount, request, accountKey(action, account)) : undefined,
    ]);
    if (refused(address)) {
      // An attempt the address limit refused was never tried on the account.
      if (account) await refund(request, action, account);
      throw tooManyRequests(address.ttlInSeconds);
    }
    if (forAccount && refused(forAccount)) throw tooManyRequests(forAccount.ttlInSeconds);
  };

  return {
    count,
    refund,
    async checkLink(request, action, uid, check) {
      await count(request, action);
      try {
        return await check();
      } catch (error) {
        if (refusesLink(error)) {
          const forAccount = await start(perAccount, request, accountKey(action, uid));
          if (refused(forAccount)) throw tooManyRequests(forAccount.ttlInSeconds);
        }
        throw error;
      }
    },
  };
}
