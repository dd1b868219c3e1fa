import type { Db } from '../db/client';
import type { MediaUrls } from '../media/urls';

/** What the content services need: the database, the media folder, and signed URLs of its files. */
export interface ContentStore {
  db: Db;
  mediaRoot: string;
  mediaUrl: MediaUrls['url'];
}
