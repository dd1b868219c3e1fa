import type { Db } from '../db/client';
import type { MediaStore } from '../media/store';
import type { MediaUrls } from '../media/urls';

/** What the content services need: the database, the media files, and signed URLs of them. */
export interface ContentStore {
  db: Db;
  files: MediaStore;
  mediaUrl: MediaUrls['url'];
}
