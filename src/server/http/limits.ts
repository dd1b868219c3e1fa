import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerFactory } from 'fastify';
import underPressure from '@fastify/under-pressure';
import { API } from '@shared/contract';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { answerClientError } from './error-handler';
import { serviceUnavailable } from './errors';
import { hasBody, isUpload } from './request-body';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The server was past a load bound when this request came, and it was not shed (a page): it does
     * without what is optional (the share page sends its loading document rather than read the database).
     */
    overloaded: boolean;
  }
}

/** How often a request body still arriving is looked at. */
const BODY_CHECK_INTERVAL_MS = 1000;
/** The window over which an upload's transfer rate is averaged. */
const RATE_WINDOW_MS = 10_000;

/**
 * Bodies that stall: a body must arrive within the request timeout; an upload may take longer as long
 * as it keeps arriving at the minimum rate (averaged over ten seconds), so a large installer on a slow
 * link works and a client trickling a byte a second does not hold a connection. Headers are bounded
 * by Node's headersTimeout (set where the server is built).
 */
function registerBodyDeadline(app: FastifyInstance, settings: Config['http']): void {
  const timeoutMs = settings.requestTimeoutSeconds * 1000;
  interface Watched {
    request: FastifyRequest;
    reply: FastifyReply;
    started: number;
    samples: Array<{ at: number; bytes: number }>;
  }
  // One timer looks at every body still arriving (a timer per request cost more than the small JSON
  // bodies it watched); it runs only while there is one. Keyed by the request's id: an object used as a
  // key gets a hash stored on it, one more change to Fastify's request object on every POST.
  const watched = new Map<string, Watched>();
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const now = Date.now();
    for (const [id, { request, reply, started, samples }] of watched) {
      const socket = request.raw.socket;
      if (request.raw.complete || socket.destroyed || reply.raw.writableEnded) {
        watched.delete(id);
        continue;
      }
      samples.push({ at: now, bytes: socket.bytesRead });
      while (samples.length > 2 && now - samples[1]!.at >= RATE_WINDOW_MS) samples.shift();
      if (now - started < timeoutMs) continue;
      const oldest = samples[0]!;
      const rate = ((socket.bytesRead - oldest.bytes) * 1000) / Math.max(1, now - oldest.at);
      const uploadStillMoving =
        isUpload(request) && (settings.minUploadBytesPerSecond === 0 || rate >= settings.minUploadBytesPerSecond);
      if (uploadStillMoving) continue;
      watched.delete(id);
      request.log.warn(
        { elapsedMs: now - started, bytesPerSecond: Math.round(rate) },
        'request body too slow: connection closed',
      );
      if (reply.sent || reply.raw.headersSent) socket.destroy();
      else
        answerClientError(
          Object.assign(new Error('request body too slow'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }),
          socket,
        );
    }
    if (watched.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  app.addHook('onRequest', (request, reply, done) => {
    if (hasBody(request) && !request.raw.complete) {
      const started = Date.now();
      const samples = [{ at: started, bytes: request.raw.socket.bytesRead }];
      watched.set(request.id, { request, reply, started, samples });
      if (!timer) (timer = setInterval(check, BODY_CHECK_INTERVAL_MS)).unref();
    }
    done();
  });
  // A body read whole (every JSON call's, by now) is let go at once. Left for the next check, each such
  // request and its reply would outlive their answer by up to a second: at thousands a second, that is
  // the garbage collector's most costly work (old-generation objects), measured as about a third of a
  // small POST's CPU (docs/decisions/025-what-a-request-costs.md).
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.raw.complete) watched.delete(request.id);
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    done();
  });
}

/**
 * Load shedding: past the event-loop delay, heap, in-flight or database-queue bound, new requests are
 * answered 503 with Retry-After at once instead of queueing behind the work already accepted. The health check
 * is never shed, so a load balancer can tell a busy server from a dead one.
 */
async function registerLoadShedding(
  app: FastifyInstance,
  database: Database,
  overload: Config['overload'],
): Promise<void> {
  // Only API calls are shed: pages, assets and media are files, cheap to send, and a page answered with
  // a JSON error would leave a person nothing to read. A page that would read the database (the share
  // page) is marked `overloaded` instead and sends its file.
  const sheddable = (request: FastifyRequest) => request.url.startsWith('/api/') && !request.url.startsWith(API.health);
  let lastWarning = 0;
  const shed = (request: FastifyRequest, cause: string, value: number) => {
    if (!sheddable(request)) {
      request.overloaded = true;
      return undefined;
    }
    // Operators see why, at most once a second.
    if (Date.now() - lastWarning > 1000) {
      lastWarning = Date.now();
      request.log.warn({ cause, value }, 'overloaded: shedding API requests with 503');
    }
    return serviceUnavailable(overload.retryAfterSeconds);
  };
  app.decorateRequest('overloaded', false);
  await app.register(underPressure, {
    maxEventLoopDelay: overload.maxEventLoopDelayMs,
    maxHeapUsedBytes: overload.maxHeapUsedBytes,
    sampleInterval: 200,
    // A window with no sample at all reads as an infinite delay (a loop that never turned, or a process
    // the machine did not schedule, as right after start-up); the next window measures the real delay,
    // so only measured delays shed.
    pressureHandler: (request, _reply, type, value) => {
      const refused = Number.isFinite(Number(value)) ? shed(request, type, Number(value)) : undefined;
      return refused && Promise.reject(refused);
    },
  });
  // Requests accepted and not yet answered: the queue in front of the embedded database (whose own
  // backlog never shows between event-loop turns) and of everything else.
  let inFlight = 0;
  const leave = () => inFlight--;
  // Synchronous (a promise per request cost more than the check).
  app.addHook('onRequest', (request, reply, done) => {
    const queued = database.queueDepth();
    const refused =
      overload.maxInFlight > 0 && inFlight >= overload.maxInFlight
        ? shed(request, 'inFlight', inFlight)
        : overload.maxDatabaseQueue > 0 && queued > overload.maxDatabaseQueue
          ? shed(request, 'databaseQueue', queued)
          : undefined;
    if (refused) {
      done(refused);
      return;
    }
    inFlight++;
    reply.raw.once('close', leave);
    done();
  });
}

/**
 * `100 Continue` for a body Fastify reads (JSON, the webhook's) once every onRequest hook has passed, unless its
 * Content-Length is past the route's limit, which the parser then answers 413 unread. An upload's multipart
 * body is read by its handler, which says go on as it starts (src/server/media/form-data.ts), after its own checks.
 */
function registerContinue(app: FastifyInstance): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if ((request.raw as ExpectingRequest)[AWAITS_CONTINUE] && !isUpload(request)) {
      const declared = Number(request.headers['content-length'] ?? 0);
      if (!(declared > request.routeOptions.bodyLimit)) continueBody(request);
    }
    done(null, payload);
  });
}

export async function registerRequestLimits(app: FastifyInstance, config: Config, database: Database): Promise<void> {
  registerBodyDeadline(app, config.http);
  registerContinue(app);
  await registerLoadShedding(app, database, config.overload);
}

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

const AWAITS_CONTINUE = Symbol('awaitsContinue');
/** A request whose client waits for `100 Continue` before its body, with the response to write it on. */
type ExpectingRequest = IncomingMessage & { [AWAITS_CONTINUE]?: ServerResponse };

/**
 * Tells a client that sent `Expect: 100-continue` to send its body (`100 Continue`), once: called when the body is
 * about to be read, after everything that needs none has passed (authentication, load shedding, rate limits, the
 * Content-Length bound of a JSON body or of an upload, an upload route's plan). A request answered before, 401 or
 * 413 say, never gets it, so its client sends no body for nothing, and Node closes the connection after the answer.
 */
export function continueBody(request: FastifyRequest): void {
  const raw = request.raw as ExpectingRequest;
  const response = raw[AWAITS_CONTINUE];
  if (!response) return;
  raw[AWAITS_CONTINUE] = undefined;
  if (!response.headersSent && !response.writableEnded) response.writeContinue();
}

/** Fastify's server options for the limits above. */
export function serverLimitOptions(settings: Config['http']) {
  const serverFactory: FastifyServerFactory = (handler) => {
    const server = createServer(
      {
        // Bodies are bounded per request kind by registerBodyDeadline; Node's own request timeout would
        // cut large uploads at a fixed time.
        requestTimeout: 0,
        headersTimeout: settings.requestTimeoutSeconds * 1000,
        // How often Node looks for connections past headersTimeout (30 s by default, too coarse).
        connectionsCheckingInterval: 1000,
      },
      handler,
    );
    // With a listener, Node no longer answers `Expect: 100-continue` itself: the app says go on once the
    // request has passed what needs no body (continueBody).
    server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
      (request as ExpectingRequest)[AWAITS_CONTINUE] = response;
      handler(request, response);
    });
    return server;
  };
  return {
    serverFactory,
    // A hop count trusts that many proxies nearest to the server.
    trustProxy: typeof settings.trustProxy === 'number' ? trustHops(settings.trustProxy) : settings.trustProxy,
  };
}

/** Settings that Fastify does not expose, applied to the HTTP server it made. */
export function applyServerLimits(app: FastifyInstance, settings: Config['http']): void {
  if (settings.maxConnections > 0) app.server.maxConnections = settings.maxConnections;
}
