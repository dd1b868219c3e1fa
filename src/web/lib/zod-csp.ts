// zod compiles object parsers with `new Function` when it may, and probes for that when it builds its
// first object schema. Our CSP has no 'unsafe-eval' (src/server/http/security.ts), so the probe's
// caught failure is still reported as a violation (a console error, and a best-practices point in
// Lighthouse). zod reads its settings from this global; set before any of its modules loads (the
// entries import this module first), `jitless` keeps it from probing. zod itself is not imported
// here, so the entries stay without it.
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };
