// Warnings about a peer that is away (Redis, PostgreSQL's notices), logged without flooding the log.

/** What these modules log through (pino's and Fastify's loggers both fit). */
export interface WarningLog {
  warn(values: object, message: string): void;
}

/** A warning logged at most once per interval, with how many like it were left out in between. */
export function throttledWarning(log: WarningLog, message: string, intervalMs = 10_000) {
  let last = 0;
  let skipped = 0;
  return (error?: unknown) => {
    const now = Date.now();
    if (now - last < intervalMs) {
      skipped++;
      return;
    }
    const reason = error instanceof Error ? error.message : error === undefined ? undefined : String(error);
    log.warn({ reason, alike: skipped }, message);
    last = now;
    skipped = 0;
  };
}
