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
 * Asks again whether a staff request's caller may still (its account and session), once its body is in and
 * in the transaction that keeps what it sent (an upload's file, an import); it throws the usual 401 or 403.
 * The CLI, run by an operator on the machine, passes none.
 */
export type StaffCheck = (db: Db) => Promise<void>;
