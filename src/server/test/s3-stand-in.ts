import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';

/** The stand-in's one account (s3rver's built-in key pair). */
export const STAND_IN_KEY = { id: 'S3RVER', secret: 'S3RVER' };
export const STAND_IN_BUCKET = 'innerwave-media';

type KoaMiddleware = (context: { method: string; status: number }, next: () => Promise<void>) => Promise<void>;

export interface S3StandIn {
  url: string;
  /** The variables that point the app at it. */
  env: Record<string, string>;
  /** From now on every DELETE is answered 503, as by a storage that stores but cannot remove. */
  refuseDeletions(): void;
  close(): Promise<void>;
}

/**
 * An S3-compatible server on loopback (s3rver, from the npm registry), with its own temp folder and
 * the bucket already made, on a port the OS chooses: test files, both database runs and overlapping
 * runs on one machine each get their own.
 */
export async function startS3StandIn(): Promise<S3StandIn> {
  const directory = mkdtempSync(path.join(tmpdir(), 'innerwave-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: [{ name: STAND_IN_BUCKET }],
  });
  let deletionsRefused = false;
  // First of s3rver's middleware (it is a Koa app, which its types leave out), composed when it starts.
  (server as unknown as { middleware: KoaMiddleware[] }).middleware.unshift(async (context, next) => {
    if (deletionsRefused && context.method === 'DELETE') {
      context.status = 503;
      return;
    }
    await next();
  });
  const { port } = await server.run();
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    env: {
      S3_URL: url,
      S3_BUCKET: STAND_IN_BUCKET,
      S3_ACCESS_KEY_ID: STAND_IN_KEY.id,
      S3_SECRET_ACCESS_KEY: STAND_IN_KEY.secret,
      S3_FORCE_PATH_STYLE: 'true',
    },
    refuseDeletions() {
      deletionsRefused = true;
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
