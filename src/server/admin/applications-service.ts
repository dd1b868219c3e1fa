import { desc, eq } from 'drizzle-orm';
import { applicationTextFieldsSchema, INSTALLER_EXTENSIONS, type AdminApplication } from '@shared/contract';
import { desktopApplications } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import {
  contentAddressedName,
  discardStaged,
  placeAndReference,
  releaseAfterCommit,
  type LeftFilesLog,
  type StagedFile,
} from '../media/store';
import { rethrowUniqueAs } from '../db/errors';
import { fieldErrors } from './audio-service';
import { installerExtension } from '../media/file-types';
import type { ContentStore, StaffCheck } from './media-context';
import { installerDownloadName } from '../media/urls';

type ApplicationRow = typeof desktopApplications.$inferSelect;

/**
 * One installer of a type per version: the type (its extension) is what tells platforms apart and names the
 * download ("Innerwave-2.1.0.exe"), so 2.1.0 may have an .exe, a .dmg and a .deb, not two .exe files.
 */
const duplicateVersion = (ext: string) =>
  badRequest({ application_version: [`An application with this version already exists for ${ext} installers.`] });

const toAdmin = async (store: ContentStore, row: ApplicationRow): Promise<AdminApplication> => ({
  id: row.id,
  application_version: row.applicationVersion,
  description: row.description,
  application_file: await store.mediaUrl(row.applicationFile, {
    downloadName: installerDownloadName(row.applicationVersion, row.applicationFile),
  }),
  size_bytes: await store.files.size(row.applicationFile),
  created_at: row.createdAt.toISOString(),
});

export async function listApplications(store: ContentStore): Promise<AdminApplication[]> {
  const rows = await store.db
    .select()
    .from(desktopApplications)
    .orderBy(desc(desktopApplications.createdAt), desc(desktopApplications.id));
  return Promise.all(rows.map((row) => toAdmin(store, row)));
}

export interface NewApplication {
  fields: Record<string, unknown>;
  /** The installer's original file name: only its extension is kept. */
  fileName: string | undefined;
  installer: StagedFile | undefined;
  assertUploader?: StaffCheck | undefined;
}

export async function createApplication(store: ContentStore, input: NewApplication): Promise<AdminApplication> {
  try {
    await input.assertUploader?.(store.db);
    const fields = applicationTextFieldsSchema.safeParse(input.fields);
    const errors: Record<string, string[]> = fields.success ? {} : fieldErrors(fields.error.issues);
    const ext = input.fileName ? installerExtension(input.fileName) : null;
    if (!input.installer) errors.application_file = ['No file was submitted.'];
    else if (!ext) errors.application_file = [`Upload an installer: ${INSTALLER_EXTENSIONS.join(', ')}.`];
    else if (input.installer.size === 0) errors.application_file = ['The submitted file is empty.'];
    if (Object.keys(errors).length || !fields.success || !input.installer || !ext) throw badRequest(errors);
    const installer = input.installer;
    const relative = `applications/${contentAddressedName(input.installer.sha256, ext)}`;
    const row = await rethrowUniqueAs(
      'desktop_applications_version_type_unique',
      () =>
        placeAndReference(store.db, store.files, [{ staged: installer, relative }], async (tx) => {
          await input.assertUploader?.(tx);
          const [inserted] = await tx
            .insert(desktopApplications)
            .values({
              applicationVersion: fields.data.application_version,
              description: fields.data.description,
              applicationFile: relative,
            })
            .returning();
          if (!inserted) throw new Error('application insert returned no row');
          return inserted;
        }),
      () => duplicateVersion(ext),
    );
    return await toAdmin(store, row);
  } finally {
    await discardStaged(input.installer);
  }
}

export async function deleteApplication(store: ContentStore, id: number, log: LeftFilesLog): Promise<AdminApplication> {
  const [row] = await store.db.delete(desktopApplications).where(eq(desktopApplications.id, id)).returning();
  if (!row) throw notFound();
  const summary = await toAdmin(store, row);
  await releaseAfterCommit(store.db, store.files, [row.applicationFile], log);
  return summary;
}
