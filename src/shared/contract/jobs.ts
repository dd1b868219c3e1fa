import { z } from 'zod';

// The durable job queue as staff see it (docs/product/api.md#background-jobs): account e-mails, the
// seeded audio library's build and the hourly purges of ended sessions and of accounts never activated, each
// retried with back-off; the ones that used every attempt wait here for a retry.

/** What staff read for each kind of job the server runs (a test holds that every kind has one). */
export const JOB_KIND_LABELS: Readonly<Record<string, string>> = {
  'mail.activation': 'Activation e-mail',
  'mail.password-reset': 'Password reset e-mail',
  'mail.password-changed': 'Password changed e-mail',
  'mail.email-change': 'New address confirmation e-mail',
  'mail.email-changed': 'Address changed e-mail',
  'mail.support-request': 'Support request e-mail',
  'mail.support-copy': 'Support copy e-mail',
  'mail.duplicate-refunded': 'Second subscription refunded e-mail',
  'billing.customer-email': 'New e-mail address sent to Stripe',
  'billing.expire-checkouts': 'Open Checkout pages closed at Stripe',
  'seed.audio-library': 'Audio library build',
  'sessions.purge': 'Clean-up of ended sign-ins',
  'accounts.purge-waiting': 'Clean-up of accounts never activated',
};

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed', 'dead'] as const;
export type JobStatusName = (typeof JOB_STATUSES)[number];

export const adminJobSchema = z.object({
  id: z.number().int(),
  /** What the job does, e.g. `mail.activation`, `mail.password-reset`, `seed.audio-library`, `sessions.purge`. */
  kind: z.string(),
  /** queued; running; done; failed (waits for its next attempt at run_at); dead (every attempt used). */
  status: z.enum(JOB_STATUSES),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  /** Who or what it is about (an account id, an address, a support request id); never a link or token. */
  payload: z.record(z.string(), z.unknown()),
  /** ISO 8601: when it runs (next), when it was added, when it ended. */
  run_at: z.string(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  last_error: z.string().nullable(),
});
export type AdminJob = z.infer<typeof adminJobSchema>;

export const jobCountsSchema = z.object({
  queued: z.number().int(),
  running: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  dead: z.number().int(),
});
export type JobCounts = z.infer<typeof jobCountsSchema>;

export const adminJobListSchema = z.object({
  /** Jobs in each status (done jobs are kept 7 days). */
  counts: jobCountsSchema,
  /** The newest jobs of the statuses asked for, at most ADMIN_JOB_PAGE_SIZE. */
  results: z.array(adminJobSchema),
});
export type AdminJobList = z.infer<typeof adminJobListSchema>;
export const ADMIN_JOB_PAGE_SIZE = 100;

const statusList = /^(queued|running|done|failed|dead)(,(queued|running|done|failed|dead))*$/;
export const adminJobQuerySchema = z.object({
  /** One status or several, comma-separated (`failed,dead`); none: every status. */
  status: z
    .string()
    .regex(statusList, { error: `Give statuses among: ${JOB_STATUSES.join(', ')} (comma-separated).` })
    .optional(),
});
