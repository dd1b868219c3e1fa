import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { RateLimitCounters } from '../cluster/rate-limit-store';
import { clientOf } from '../http/client-address';
import { decodeUid } from './account-tokens';
import { ApiError, tooManyRequests } from '../http/errors';

// Login, signup, reset, activation (and its resend) and the calls that check the current password are
// limited per client address, per account from that address, and per account from all addresses
// (docs/product/accounts.md#rate-limits): the address limit slows one machine trying many accounts, the
// account-from-address limit one machine trying one account, and the account limit, set higher than one
// address can reach, many machines trying one. One machine thus locks only its own attempts: someone who
// knows a person's e-mail address cannot keep them from logging in.
// Counters live in the rate-limit plugin's store: Redis when configured (every server counts once), else
// the primary's, for all its workers (docs/decisions/001-workers-share-state-through-the-primary.md,
// 014-redis-or-listen-notify-between-servers.md). Keys name their limiter: the limiters share a key space; the
// `account` and `mail` kinds are held until their window ends (rate-limit-store.ts).
// A login's account counters count failures only: the attempt is counted before the password is checked,
// so guesses sent together cannot all pass, and given back when it was right. An e-mailed link's account
// counter (the account its `uid` names) counts only links refused, after the check: its token cannot be guessed, and a count
// taken before let anyone spend a person's attempts and have their real link refused. A call that mails an
// address counts its mails per address whoever asks, apart from the answer
// (docs/decisions/006-passwords-account-links-and-attempt-limits.md).

export type LimitedAction =
  'login' | 'signup' | 'reset' | 'activation' | 'resend' | 'current-password' | 'email-change';

/** Whether a call may send its mail: at most the per-account number per window, whoever asks. */
export type MailVerdict = { send: true } | { send: false; retryAfterSeconds: number };

export interface AuthRateLimits {
  /**
   * Counts one attempt; throws 429 with Retry-After when the client address, the account from that address
   * or the account from all addresses is over its limit.
   */
  count(request: FastifyRequest, action: LimitedAction, account?: string): Promise<void>;
  /** Gives the account's counters back the attempt just counted (the address keeps it): it did not fail. */
  refund(request: FastifyRequest, action: LimitedAction, account: string): Promise<void>;
  /**
   * Counts a call that mails `email`: throws 429 when the client address, or this address's calls for
   * `email`, are over their limit; otherwise counts the mail against `email` and says whether it may go.
   */
  countMail(request: FastifyRequest, action: LimitedAction, email: string): Promise<MailVerdict>;
  /**
   * Runs the check of an e-mailed link (`uid` and `token`), the address's attempt counted first: a link refused
   * as wrong counts against its account, past whose limit a wrong one is answered `429`; a right one is never
   * refused by that count.
   */
  checkLink<T>(request: FastifyRequest, action: LimitedAction, uid: string, check: () => Promise<T>): Promise<T>;
}

/**
 * A refusal of a link's token, its account found: a uid that names no account is counted by the address
 * alone, so that made-up ones add no account counters (they are held until their window ends).
 */
const refusesToken = (error: unknown) => error instanceof ApiError && error.statusCode === 400 && 'token' in error.body;

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
  const perAccountAllAddresses = app.createRateLimit({
    max: settings.perEmailAllAddresses,
    timeWindow,
    keyGenerator: keyOf,
  });
  type Limiter = typeof perAddress;

  // The limiter reads its key (keyGenerator) synchronously when called, so several may be started at once.
  const start = (limiter: Limiter, request: FastifyRequest, key: string) => {
    keys.set(request, key);
    return limiter(request);
  };
  type Verdict = Awaited<ReturnType<Limiter>>;
  type Refusal = Extract<Verdict, { isAllowed: false }>;
  const refused = (verdict: Verdict): verdict is Refusal => !verdict.isAllowed && verdict.isExceeded;

  const account = (name: string) => name.trim().toLowerCase();
  const addressKey = (action: LimitedAction, request: FastifyRequest) => `${action}|address|${clientOf(request.ip)}`;
  const accountKey = (action: LimitedAction, name: string) => `${action}|account|${account(name)}`;
  const fromAddressKey = (action: LimitedAction, request: FastifyRequest, name: string) =>
    `${action}|account-from|${clientOf(request.ip)}|${account(name)}`;
  const mailKey = (action: LimitedAction, email: string) => `${action}|mail|${account(email)}`;

  // A counter that cannot be reached only costs the account one attempt.
  const giveBack = (request: FastifyRequest, key: string) =>
    counters
      .refund(key)
      .catch((error: unknown) => request.log.warn({ err: error }, 'rate-limit counter not given back'));

  /**
   * Counts the attempt on every counter at once (with the primary's counters they cross as one message, a
   * login's busiest hop after the hash; with Redis's in one round trip), the address's first. When one
   * refuses it, the others but the address's get it back, as it was never tried, and the answer is 429.
   * `mail`, counted with them, never refuses: its verdict is returned.
   */
  const countOn = async (
    request: FastifyRequest,
    counted: ReadonlyArray<readonly [Limiter, string]>,
    mail?: readonly [Limiter, string],
  ) => {
    const all = mail ? [...counted, mail] : counted;
    const verdicts = await Promise.all(all.map(([limiter, key]) => start(limiter, request, key)));
    const refusal = verdicts.findIndex((verdict, i) => i < counted.length && refused(verdict));
    if (refusal === -1) return verdicts[counted.length];
    await Promise.all(all.flatMap(([, key], i) => (i === 0 || i === refusal ? [] : [giveBack(request, key)])));
    throw tooManyRequests((verdicts[refusal] as Refusal).ttlInSeconds);
  };

  const count: AuthRateLimits['count'] = async (request, action, name) => {
    await countOn(request, [
      [perAddress, addressKey(action, request)],
      ...(name === undefined
        ? []
        : ([
            [perAccount, fromAddressKey(action, request, name)],
            [perAccountAllAddresses, accountKey(action, name)],
          ] as const)),
    ]);
  };

  return {
    count,
    async refund(request, action, name) {
      await Promise.all([
        giveBack(request, fromAddressKey(action, request, name)),
        giveBack(request, accountKey(action, name)),
      ]);
    },
    async countMail(request, action, email) {
      const mails = await countOn(
        request,
        [
          [perAddress, addressKey(action, request)],
          [perAccount, fromAddressKey(action, request, email)],
        ],
        [perAccount, mailKey(action, email)],
      );
      return mails && refused(mails) ? { send: false, retryAfterSeconds: mails.ttlInSeconds } : { send: true };
    },
    async checkLink(request, action, uid, check) {
      await count(request, action);
      try {
        return await check();
      } catch (error) {
        const id = decodeUid(uid);
        if (refusesToken(error) && id !== undefined) {
          // By the account's id: several spellings of a uid decode to one account.
          const forAccount = await start(perAccount, request, accountKey(action, `user:${id}`));
          if (refused(forAccount)) throw tooManyRequests(forAccount.ttlInSeconds);
        }
        throw error;
      }
    },
  };
}
