import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { API } from '@shared/contract';

/** sha256 sources for the inline scripts of the built pages (the theme is set before first paint). */
export function inlineScriptHashes(pages: string[]): string[] {
  const hashes = new Set<string>();
  for (const match of pages.join('\n').matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    const body = match[1] ?? '';
    if (body.trim()) hashes.add(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return [...hashes];
}

/**
 * helmet's headers, computed once: they depend on nothing in the request, and @fastify/helmet rebuilds
 * helmet's middleware for every request (a tenth of the CPU of a small API call).
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/** The browser features a page may use (each one Chromium knows, or it warns on every page). */
const PAGE_PERMISSIONS = [
  'microphone=(self)',
  'fullscreen=(self)',
  'screen-wake-lock=(self)',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
].join(', ');

/** The security headers of the answer to a request for `url`. */
export type SecurityHeadersFor = (url: string) => Record<string, string>;

/**
 * The security headers of every response, by URL; CORS stays closed because no CORS plugin is
 * registered. `mediaOrigins`: where media URLs point when they are not the app's own (S3-compatible
 * storage).
 */
export function securityHeadersByUrl(
  pages: string[],
  hstsMaxAgeSeconds: number,
  mediaOrigins: string[] = [],
): SecurityHeadersFor {
  const headers = securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' lets the speech worker compile eSpeak NG's WebAssembly (decision 019); no JS eval.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...inlineScriptHashes(pages)],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...mediaOrigins],
        mediaSrc: ["'self'", 'blob:', ...mediaOrigins],
        fontSrc: ["'self'", 'data:'],
        // The player fetches library tracks to decode them (src/web/lib/audio).
        connectSrc: ["'self'", ...mediaOrigins],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // What frame-ancestors 'none' says, for browsers that read only this header: no page of ours frames another.
    xFrameOptions: { action: 'deny' },
    // Same-origin media and downloads only; keep cross-origin isolation off so audio elements work.
    crossOriginEmbedderPolicy: false,
    // HTTPS is the proxy's job; the header tells browsers to use nothing else (on in production).
    strictTransportSecurity: hstsMaxAgeSeconds > 0 ? { maxAge: hstsMaxAgeSeconds, includeSubDomains: false } : false,
  });
  // A page may use what the product uses, from its own origin only: the microphone (one's own voice,
  // decision 035), full screen and the screen wake lock (the flashing player); nothing else, so script that
  // got in (or a frame, were one allowed) cannot ask for the camera, the location or a payment sheet.
  headers['permissions-policy'] = PAGE_PERMISSIONS;
  // An API answer is data, never a page: it carries the headers that protect data (OWASP's REST
  // cheat sheet: nothing may frame it, sniff it into another type or read it from another origin), not
  // those that only a document uses (opener policy, agent cluster, DNS prefetch, XSS filter…). Its policy
  // allows nothing and stays short: the pages' carries a hash per inline script. Each header costs every
  // call its validation and bytes (helmet's whole set was about a tenth of a small call's CPU). The API's
  // docs are a page. An answer is someone's data, so no cache keeps it (the same cheat sheet's no-store): a
  // browser's disk cache held a person's messages, sessions and history after they signed out of a shared
  // computer. A call whose answer may be kept says so itself (the content lists' ETag and no-cache).
  const apiHeaders: Record<string, string> = {
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
  };
  if (headers['strict-transport-security'])
    apiHeaders['strict-transport-security'] = headers['strict-transport-security'];
  return (url) => (url.startsWith('/api/') && !url.startsWith(API.docs) ? apiHeaders : headers);
}

/**
 * Sends `headersFor`'s headers with every routed request's answer. (A request the router refuses, its
 * URL not decoding, gets them from the app's frameworkErrors handler: no hook runs for it.)
 */
export function registerSecurity(app: FastifyInstance, headersFor: SecurityHeadersFor): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headersFor(request.url));
    done();
  });
}
