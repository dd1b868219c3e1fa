import type { Config, S3Config } from '../config';
import { mediaDir } from '../paths';
import { localMediaStore, type MediaStore } from './store';
import { createMediaUrls, mediaNotServedByApp, type MediaUrls } from './urls';

/** Where media live and how their URLs are made: the data folder and the app's signed URLs by default. */
export interface MediaStorage {
  files: MediaStore;
  urls: MediaUrls;
  /** Start-up check that the storage is there and opens with the configured credentials. */
  check(): Promise<void>;
}

export function createMediaStorage(config: Config): MediaStorage {
  const stagingRoot = mediaDir(config.dataDir);
  if (!config.s3)
    return {
      files: localMediaStore(stagingRoot),
      urls: createMediaUrls(config.secretKey, config.publicUrl),
      check: () => Promise.resolve(),
    };
  const s3 = config.s3;
  // The AWS SDK (~40 MB in memory) is loaded only where S3 is configured; every call waits for it.
  const loading = import('./s3-store').then((sdk) => {
    const client = sdk.createS3Client(s3);
    return {
      files: sdk.s3MediaStore(client, s3.bucket, stagingRoot),
      urls: sdk.s3MediaUrls(client, s3.bucket),
      check: () => sdk.checkS3Storage(client, s3),
    };
  });
  // A failure to load is reported by the first call that waits for it, not as an unhandled rejection.
  loading.catch(() => undefined);
  return {
    files: {
      kind: 's3',
      stagingRoot,
      place: async (staged, relative) => (await loading).files.place(staged, relative),
      read: async (relative, range) => (await loading).files.read(relative, range),
      size: async (relative) => (await loading).files.size(relative),
      remove: async (relative) => (await loading).files.remove(relative),
    },
    urls: {
      url: async (relativePath, options) => (await loading).urls.url(relativePath, options),
      verify: mediaNotServedByApp,
    },
    check: async () => (await loading).check(),
  };
}

/** The origin media URLs point at (for the pages' Content-Security-Policy): the app's own unless S3. */
export function mediaOrigins(s3: S3Config | undefined): string[] {
  if (!s3) return [];
  const endpoint = new URL(s3.endpoint);
  return [s3.forcePathStyle ? endpoint.origin : `${endpoint.protocol}//${s3.bucket}.${endpoint.host}`];
}
