import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { RateLimitCounters } from '../cluster/rate-limit-store';
import { tooManyRequests } from '../http/errors';

// Login, signup, reset, activation (and its resend) and the calls that check the current password are
// limited per client address and per account (docs/product/accounts.md#rate-limits): the address limit
// slows one machine trying many accounts, the account limit many machines trying one.
// Counters live in the rate-limit plugin's store: Redis when configured (every server counts once), else
// the primary's, for all its workers (docs/decisions/001-workers-share-state-through-the-primary.md,
// 014-redis-or-listen-notify-between-servers.md). Keys name their limiter: the limiters share a key space.
// A login's account counter counts failures only: the attempt is counted before the password is checked,
// so guesses sent together cannot all pass, and given back when it was right.

export type LimitedAction =
  'login' | 'signup' | 'reset' | 'activation' | 'resend' | 'current-password' | 'email-change';

export interface AuthRateLimits {
  /** Counts one attempt; throws 429 with Retry-After when the address or the account is over its limit. */
  count(request: FastifyRequest, action: LimitedAction, account?: string): Promise<void>;
  /** Gives the account back the attempt just counted (the address keeps it): it did not fail. */
  refund(request: FastifyRequest, action: LimitedAction, account: string): Promise<void>;
}

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

  const count = async (limiter: typeof perAddress, request: FastifyRequest, key: string) => {
    keys.set(request, key);
    const result = await limiter(request);
    if (!result.isAllowed && result.isExceeded) throw tooManyRequests(result.ttlInSeconds);
  };

  const accountKey = (action: LimitedAction, account: string) => `${action}|account|${account.trim().toLowerCase()}`;

  return {
    async count(request, action, account) {
      await count(perAddress, request, `${action}|address|${request.ip}`);
      if (account) await count(perAccount, request, accountKey(action, account));
    },
    async refund(request, action, account) {
      // The login has succeeded: a counter that cannot be reached only costs the account one attempt.
      await counters
        .refund(accountKey(action, account))
        .catch((error: unknown) => request.log.warn({ err: error }, 'rate-limit counter not given back'));
    },
  };
}
