import type { Db } from '../db/client';
import type { MediaStore } from '../media/store';
import type { MediaUrls } from '../media/urls';

/** What the content services need: the database, the media files, and signed URLs of them. */
export interface ContentStore {
  db: Db;
  files: MediaStore;
  mediaUrl: MediaUrls['url'];
}

/**
 * Asks again whether the one uploading may still (a staff request's account and session), once the body is
 * in and in the transaction that keeps the file; it throws the usual 401 or 403. The CLI, run by an
 * operator on the machine, passes none.
 */
export type UploaderCheck = (db: Db) => Promise<void>;
