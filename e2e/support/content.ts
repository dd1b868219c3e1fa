import type { APIRequestContext } from '@playwright/test';
import { API } from '../../src/shared/contract/paths';
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

/** Publishes an installer the way an operator does: through the staff-only admin API. */
export async function publishDesktopApplication(
  request: APIRequestContext,
  version: string,
  description: string,
): Promise<PublishedApplication> {
  const login = await request.post(API.tokenCreate, { data: staffCredentials() });
  if (!login.ok()) throw new Error(`staff login failed: ${login.status()} ${await login.text()}`);
  const { access } = (await login.json()) as { access: string };
  const fileName = `Innerwave-Setup-${version}.exe`;
  const bytes = Buffer.from(`MZ innerwave test installer ${version}`);
  const upload = await request.post(ADMIN_API.applications, {
    headers: { Authorization: `Bearer ${access}` },
    multipart: {
      application_version: version,
      description,
      application_file: { name: fileName, mimeType: 'application/octet-stream', buffer: bytes },
    },
  });
  if (upload.status() !== 201) throw new Error(`installer upload failed: ${upload.status()} ${await upload.text()}`);
  return { version, fileName, bytes };
}
