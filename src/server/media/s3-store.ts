import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ConfigError, type S3Config } from '../config';
import { ApiError } from '../http/errors';
import { MediaFileMissingError, type MediaStore } from './store';
import { linkWindow, mediaNotServedByApp, safeDownloadName, type MediaUrls } from './urls';

// Media in S3-compatible object storage (AWS S3, MinIO, Ceph, R2, ...) through the official SDK.
// An object is written by one PUT, so it appears whole or not at all; uploads are still staged on the
// local disk first (hashed and checked there), then sent. Names are the same relative paths as on disk.

export const STORAGE_UNAVAILABLE = 'The file storage cannot be reached right now. Please try again in a few moments.';
const RETRY_AFTER_SECONDS = 5;

/**
 * Names we write are content-addressed (their bytes never change), but the media are private
 * (decisions §11): browsers may keep them, shared caches may not. Each presigned URL narrows this to
 * its own lifetime (s3MediaUrls).
 */
const IMMUTABLE = 'private, max-age=31536000, immutable';
const INSTALLER = /\.(exe|msi|dmg|pkg|zip|appimage|deb|rpm)$/i;
/** Download names are made ASCII-safe when signed (safeDownloadName), so `filename` alone says it all. */
const attachment = (name: string) => `attachment; filename="${safeDownloadName(name)}"`;

const CONTENT_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  flac: 'audio/flac',
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

/** The type an object is stored with: what it is for media, always a download for installers. */
export function storedContentType(relative: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(relative)?.[1]?.toLowerCase() ?? '';
  return (!INSTALLER.test(relative) && CONTENT_TYPES[ext]) || 'application/octet-stream';
}

export function createS3Client(config: S3Config): S3Client {
  return new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // Plain PUTs with a Content-Length, which every S3-compatible server understands (no aws-chunked
    // bodies with trailing checksums, which several do not).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 120_000 },
  });
}

const statusOf = (error: unknown) => (error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined);
const isMissing = (error: unknown) =>
  statusOf(error) === 404 || (error instanceof Error && (error.name === 'NoSuchKey' || error.name === 'NotFound'));

/**
 * A storage that cannot be reached (refused, timed out, 5xx after the SDK's retries) is a 503 the
 * client may retry; anything else (a wrong key, a missing bucket) is the operator's and stays a 500.
 */
async function reaching<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const status = statusOf(error);
    if (status === undefined ? !(error instanceof S3ServiceException) : status >= 500)
      throw Object.assign(
        new ApiError(503, { detail: STORAGE_UNAVAILABLE }, { 'Retry-After': String(RETRY_AFTER_SECONDS) }),
        { cause: error },
      );
    throw error;
  }
}

export function s3MediaStore(client: S3Client, bucket: string, stagingRoot: string): MediaStore {
  const size = async (relative: string) => {
    try {
      const head = await reaching(() => client.send(new HeadObjectCommand({ Bucket: bucket, Key: relative })));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };
  return {
    kind: 's3',
    stagingRoot,
    async place(staged, relative) {
      if ((await size(relative)) !== null) {
        await rm(staged.tempPath, { force: true });
        return { created: false };
      }
      await reaching(() =>
        client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: relative,
            Body: createReadStream(staged.tempPath),
            ContentLength: staged.size,
            ContentType: storedContentType(relative),
            CacheControl: IMMUTABLE,
            ...(INSTALLER.test(relative) && {
              ContentDisposition: attachment(relative.slice(relative.lastIndexOf('/') + 1)),
            }),
          }),
        ),
      );
      await rm(staged.tempPath, { force: true });
      return { created: true };
    },
    async read(relative, range) {
      try {
        const object = await reaching(() =>
          client.send(
            new GetObjectCommand({
              Bucket: bucket,
              Key: relative,
              ...(range && { Range: `bytes=${range.start}-${range.end ?? ''}` }),
            }),
          ),
        );
        return object.Body as Readable;
      } catch (error) {
        if (isMissing(error)) throw new MediaFileMissingError(relative);
        throw error;
      }
    },
    size,
    async remove(relative) {
      await reaching(() => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: relative })));
    },
  };
}

/**
 * Media URLs issued by the storage itself: presigned GETs, valid exactly as long as the app's own
 * (see urls.ts), and signed as of the start of the window, so a file's URL stays the same within it.
 * A download's name travels as response-content-disposition, signed with the URL.
 */
export function s3MediaUrls(client: S3Client, bucket: string, clock: () => Date = () => new Date()): MediaUrls {
  return {
    async url(relativePath, options = {}) {
      const { signedAt, expires } = linkWindow(clock());
      const downloadName = options.downloadName ? safeDownloadName(options.downloadName) : '';
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key: relativePath,
        // Kept by the browser for as long as the link works, by no shared cache (decisions §11).
        ResponseCacheControl: `private, max-age=${expires - signedAt}, immutable`,
        ...(downloadName && {
          ResponseContentDisposition: attachment(downloadName),
          ResponseContentType: 'application/octet-stream',
        }),
      });
      return getSignedUrl(client, command, {
        signingDate: new Date(signedAt * 1000),
        expiresIn: expires - signedAt,
      });
    },
    verify: mediaNotServedByApp,
  };
}

/** A name never written (not content-addressed), read at start-up to prove the bucket and the key. */
const PROBE_KEY = 'innerwave-start-up-probe';

/**
 * Start-up check: the bucket exists and the credentials open it (a read of a name that is never
 * written: "no such key" is the good answer). Throws a message naming the endpoint, the bucket and
 * what went wrong, so a wrong setting stops the server at once.
 */
export async function checkS3Storage(client: S3Client, config: S3Config): Promise<void> {
  try {
    await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: PROBE_KEY }));
  } catch (error) {
    if (error instanceof Error && error.name === 'NoSuchKey') return;
    const status = statusOf(error);
    const reason =
      error instanceof Error && error.name === 'NoSuchBucket'
        ? 'the bucket does not exist'
        : status === 403 || status === 401
          ? 'access denied (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)'
          : status === undefined
            ? `cannot be reached (${error instanceof Error ? error.message || error.name : String(error)})`
            : `answered ${status}`;
    // A ConfigError: start-up prints its message alone and stops.
    throw new ConfigError(`S3 storage at ${config.endpoint}, bucket "${config.bucket}": ${reason}`, { cause: error });
  }
}
