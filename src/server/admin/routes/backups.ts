import { ADMIN_API, adminBackupStatusSchema } from '@shared/contract';
import { errors, tags, type AdminRoutes } from './shared';

/** The backups' state, read-only: those who act on it have the machine (docs/product/operations.md). */
export const registerBackupRoutes: AdminRoutes = ({ app, ctx }) => {
  app.get(
    ADMIN_API.backups,
    {
      schema: {
        tags,
        summary:
          'Backups: on or off, where, the schedule, the last backup, the last failure and the next time (embedded database)',
        response: { 200: adminBackupStatusSchema, ...errors },
      },
    },
    async () => ctx.backups.status(),
  );
};
