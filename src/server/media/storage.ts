import type { Config, S3Config } from '../config';
import { mediaDir } from '../paths';
import { checkS3Storage, createS3Client, s3MediaStore, s3MediaUrls } from './s3-store';
import { localMediaStore, type MediaStore } from './store';
import { createMediaUrls, type MediaUrls } from './urls';

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
  const client = createS3Client(s3);
  return {
    files: s3MediaStore(client, s3.bucket, stagingRoot),
    urls: s3MediaUrls(client, s3.bucket),
    check: () => checkS3Storage(client, s3),
  };
}

/** The origin media URLs point at (for the pages' Content-Security-Policy): the app's own unless S3. */
export function mediaOrigins(s3: S3Config | undefined): string[] {
  if (!s3) return [];
  const endpoint = new URL(s3.endpoint);
  return [s3.forcePathStyle ? endpoint.origin : `${endpoint.protocol}//${s3.bucket}.${endpoint.host}`];
}
