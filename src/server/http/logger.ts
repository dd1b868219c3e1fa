import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { destination, pino } from 'pino';
import { API, EMAILED_PAGES, SHARED_PAGE } from '@shared/contract';

/** Query parameters whose values are credentials, whatever call they are sent to. */
const SECRET_QUERY_PARAMS =
  /^(token|access|refresh|access_token|refresh_token|id_token|uid|signature|sig|key|api_key|apikey|secret|password|code|auth|authorization|jwt|session)$/i;

/**
 * The e-mailed pages whose path carries a uid and a token: `/activation/{uid}/{token}`… in any letter
 * case, as the server answers a page's path (`/Activation/…` redirects to the page with its token).
 */
const TOKEN_IN_PATH = new RegExp(
  `/(${Object.values(EMAILED_PAGES)
    .filter((page) => page.endsWith('/:uid/:token'))
    .map((page) => page.slice(1, -'/:uid/:token'.length))
    .join('|')})/[^/?#]+/[^/?#]+`,
  'i',
);

/**
 * A share link's token, in its page (`/s/{token}`, any case) and in the calls that read and copy it: anyone
 * holding it reads what was shared, so a log keeps it no more than an e-mailed link's.
 */
const SHARE_TOKEN_IN_PATH = new RegExp(
  `^(${[SHARED_PAGE, API.shared].map((path) => path.slice(0, path.indexOf(':token'))).join('|')})[^/?#]+`,
  'i',
);

/**
 * Single-use links carry tokens in their path, and a client may put a token in a query string:
 * logs keep the route and the parameter names, never those values.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const pathname = queryAt < 0 ? url : url.slice(0, queryAt);
  const path = pathname
    .replace(TOKEN_IN_PATH, '/$1/[redacted]/[redacted]')
    .replace(SHARE_TOKEN_IN_PATH, '$1[redacted]');
  if (queryAt < 0) return path;
  const query = url.slice(queryAt + 1);
  const redacted = query
    .split('&')
    .map((pair) => {
      const [name = '', ...value] = pair.split('=');
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A name that is not valid percent-encoding is kept as sent.
      }
      if (value.length > 0 && SECRET_QUERY_PARAMS.test(decoded)) return `${name}=[redacted]`;
      // A page to come back to may be a share link (`/login?redirect=%2Fs%2F…`, decision 052).
      const sent = value.join('=');
      let page = sent;
      try {
        page = decodeURIComponent(sent);
      } catch {
        // A value that is not valid percent-encoding is looked at as sent.
      }
      return SHARE_TOKEN_IN_PATH.test(page) ? `${name}=${page.replace(SHARE_TOKEN_IN_PATH, '$1[redacted]')}` : pair;
    })
    .join('&');
  return `${path}?${redacted}`;
}

interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
  code?: unknown;
  cause?: LoggedError;
}

/**
 * Drizzle puts a failed query's parameters (e-mails, hashes) into its message after "params:", and
 * PostgreSQL quotes the offending value in some messages (`invalid input syntax for type integer: "…"`).
 */
const withoutParams = (text: string) =>
  text
    .replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/, '\nparams: [redacted]')
    .replace(/(for type [\w ]+|value|key): "[^"\n]*"/gi, '$1: "[redacted]"');

/**
 * Errors as logged: type, message, stack, code and cause, and nothing else. Database errors carry the
 * values of the failed query in other fields (`params`, PostgreSQL's `detail`, `parameters`), which
 * must not reach the log.
 */
export function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '[not an Error]', stack: '' };
  const logged: LoggedError = {
    type: error.constructor?.name ?? error.name,
    message: withoutParams(error.message),
    stack: withoutParams(error.stack ?? ''),
  };
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) logged.code = code;
  if (error.cause !== undefined && depth < 5) logged.cause = serializeError(error.cause, depth + 1);
  return logged;
}

/**
 * Structured logs that never contain passwords, tokens or query parameters: requests and errors go
 * through serializers that keep named fields only (never headers or bodies); pino's redaction of paths
 * cost a twentieth of every request's time. Written to stdout without blocking, in batches: lines gather
 * until 2 KB or a quarter of a second has passed, so under load one system call carries about ten
 * requests (a write per line cost about a tenth of a cached read's CPU). Each write is at most 4 KB of
 * whole lines, which a pipe shared by the cluster's processes takes in one piece. pino flushes what is
 * left when the process exits (a process killed outright loses its last quarter-second of lines).
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    stream: destination({ dest: 1, sync: false, minLength: 2048, maxWrite: 4096, periodicFlush: 250 }),
    serializers: {
      // The URL as sent (Fastify keeps it on the raw request when rewriteUrl gave the router another one,
      // routedUrl); not request.originalUrl, whose getter adds a property to every request it is read on.
      req: (req: { method: string; url: string; raw?: IncomingMessage & { originalUrl?: string }; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.raw?.originalUrl ?? req.url),
        ip: req.ip,
      }),
      err: serializeError,
    },
  };
}

/** The same logs outside a Fastify instance (the primary; a worker's connections made before its app). */
export function processLogger(level: string): pino.Logger {
  const { stream, ...options } = loggerOptions(level) as pino.LoggerOptions & { stream: pino.DestinationStream };
  return pino(options, stream);
}

/**
 * One line per request, written when it is answered (Fastify's own logging writes two: one on arrival
 * and one on answer); a request that fails also has its error's line, with the same reqId.
 */
export function logRequests(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      { req: request, res: { statusCode: reply.statusCode }, ms: Math.round(reply.elapsedTime * 10) / 10 },
      'request',
    );
    done();
  });
}
