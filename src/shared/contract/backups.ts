import { z } from 'zod';

// The state of the backups as staff see it (docs/product/api.md#backups): read-only, the machine's operator acts on
// it (docs/decisions/154-backups-at-a-time-of-day-and-their-state-for-staff.md).

export const adminBackupStatusSchema = z.object({
  /** `embedded`: PGlite in DATA_DIR, which the server backs up; `postgresql`: pg_dump's to back up, not the server's. */
  database: z.enum(['embedded', 'postgresql']),
  /** Backups on a schedule (BACKUP_DIR set); never on PostgreSQL. */
  scheduled: z.boolean(),
  /** BACKUP_DIR, an absolute path on the server. */
  dir: z.string().nullable(),
  /** Daily at this time of day, UTC (`HH:MM`, BACKUP_AT), or else every `every_seconds` (BACKUP_EVERY_SECONDS). */
  at: z.string().nullable(),
  every_seconds: z.number().nullable(),
  /** How many of its backups the schedule keeps (BACKUP_KEEP), and how many the folder holds now. */
  keep: z.number().int().nullable(),
  count: z.number().int(),
  /** The newest of the schedule's backups in the folder: its time (ISO 8601, from its name) and size. */
  last: z.object({ name: z.string(), taken_at: z.string(), bytes: z.number().int() }).nullable(),
  /** The schedule's last failure since the server started, and why; a later backup does not clear it. */
  last_failure: z.object({ at: z.string(), reason: z.string() }).nullable(),
  /** When the next is due; null before the schedule has started (just after the server's start). */
  next_at: z.string().nullable(),
  /** Why the folder could not be read (then `count` is 0 and `last` null); null when it was read. */
  dir_error: z.string().nullable(),
});
export type AdminBackupStatus = z.infer<typeof adminBackupStatusSchema>;
