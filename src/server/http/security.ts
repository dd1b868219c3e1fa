import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/** sha256 sources for the inline scripts of the built pages (the theme is set before first paint). */
export function inlineScriptHashes(pages: string[]): string[] {
  const hashes = new Set<string>();
  for (const match of pages.join('\n').matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    const body = match[1] ?? '';
    if (body.trim()) hashes.add(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return [...hashes];
}

/** Security headers; CORS stays closed because no CORS plugin is registered. */
export async function registerSecurity(app: FastifyInstance, pages: string[], hstsMaxAgeSeconds: number): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScriptHashes(pages)],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // Same-origin media and downloads only; keep cross-origin isolation off so audio elements work.
    crossOriginEmbedderPolicy: false,
    // HTTPS is the proxy's job; the header tells browsers to use nothing else (on in production).
    strictTransportSecurity: hstsMaxAgeSeconds > 0 ? { maxAge: hstsMaxAgeSeconds, includeSubDomains: false } : false,
  });
}
