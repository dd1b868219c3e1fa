import type { FastifyServerOptions } from 'fastify';

/** Single-use links carry tokens in their path; logs keep the route, not the token. */
export function redactUrl(url: string): string {
  return url.replace(/\/(activation|password-reset)\/[^/?#]+\/[^/?#]+/, '/$1/[redacted]/[redacted]');
}

/** Structured logs that never contain passwords or tokens. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.re_password',
        '*.new_password',
        '*.re_new_password',
        '*.refresh',
        '*.access',
        '*.token',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
    },
  };
}
