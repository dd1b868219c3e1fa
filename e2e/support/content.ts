import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { AudioKind } from '../../src/shared/contract';
import { API, fillPath } from '../../src/shared/contract/paths';
import { ADMIN_API } from '../../src/shared/contract/admin';

export interface PublishedApplication {
  version: string;
  fileName: string;
  bytes: Buffer;
}

/** The staff account scripts/e2e.mjs creates with the admin CLI before the server starts. */
function staffCredentials() {
  const email = process.env.E2E_STAFF_EMAIL;
  const password = process.env.E2E_STAFF_PASSWORD;
  if (!email || !password) throw new Error('Run the e2e tests with `npm run test:e2e` (it creates the staff account).');
  return { email, password };
}

/** The staff account's Authorization header, signed in through the API. */
export async function asStaff(request: APIRequestContext): Promise<{ Authorization: string }> {
  const login = await request.post(API.tokenCreate, { data: staffCredentials() });
  if (!login.ok()) throw new Error(`staff login failed: ${login.status()} ${await login.text()}`);
  const { access } = (await login.json()) as { access: string };
  return { Authorization: `Bearer ${access}` };
}

/** Publishes an installer the way an operator does: through the staff-only admin API. */
export async function publishDesktopApplication(
  request: APIRequestContext,
  version: string,
  description: string,
): Promise<PublishedApplication> {
  const headers = await asStaff(request);
  const fileName = `Innerwave-Setup-${version}.exe`;
  const bytes = Buffer.from(`MZ innerwave test installer ${version}`);
  const upload = await request.post(ADMIN_API.applications, {
    headers,
    multipart: {
      application_version: version,
      description,
      application_file: { name: fileName, mimeType: 'application/octet-stream', buffer: bytes },
    },
  });
  if (upload.status() !== 201) throw new Error(`installer upload failed: ${upload.status()} ${await upload.text()}`);
  return { version, fileName, bytes };
}

/** Deletes every published installer of `version` as an operator does, through the staff-only admin API. */
export async function removeDesktopApplications(request: APIRequestContext, version: string): Promise<void> {
  const headers = await asStaff(request);
  const listed = await request.get(ADMIN_API.applications, { headers });
  if (!listed.ok()) throw new Error(`installer list failed: ${listed.status()} ${await listed.text()}`);
  const applications = (await listed.json()) as { id: number; application_version: string }[];
  for (const application of applications.filter((candidate) => candidate.application_version === version)) {
    const removed = await request.delete(fillPath(ADMIN_API.application, { id: application.id }), { headers });
    if (removed.status() !== 204)
      throw new Error(`installer removal failed: ${removed.status()} ${await removed.text()}`);
  }
}

/** Adds a track to a library as staff do, through the admin API; returns its id. */
export async function addLibraryTrack(
  request: APIRequestContext,
  kind: AudioKind,
  name: string,
  audio: Buffer,
): Promise<number> {
  const upload = await request.post(fillPath(ADMIN_API.audioItems, { kind }), {
    headers: await asStaff(request),
    multipart: { name, audio_file: { name: `${name}.wav`, mimeType: 'audio/wav', buffer: audio } },
  });
  if (upload.status() !== 201) throw new Error(`track upload failed: ${upload.status()} ${await upload.text()}`);
  return ((await upload.json()) as { id: number }).id;
}

/** Removes a library track as staff do, through the admin API. */
export async function removeLibraryTrack(request: APIRequestContext, kind: AudioKind, id: number): Promise<void> {
  const removed = await request.delete(fillPath(ADMIN_API.audioItem, { kind, id }), {
    headers: await asStaff(request),
  });
  if (removed.status() !== 204) throw new Error(`track removal failed: ${removed.status()} ${await removed.text()}`);
}

/** The first start synthesises the library in the background: reloads until `control` is there. */
export async function untilShown(page: Page, control: Locator): Promise<void> {
  await expect
    .poll(
      async () => {
        if (await control.isVisible()) return true;
        await page.reload();
        return control.isVisible();
      },
      { timeout: 90_000, intervals: [2000] },
    )
    .toBe(true);
}
