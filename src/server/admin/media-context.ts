import { MEDIA_PREFIX } from '@shared/contract';
import type { Db } from '../db/client';

/** What the content services need: the database, the media folder, and how a stored path becomes a URL. */
export interface ContentStore {
  db: Db;
  mediaRoot: string;
  mediaUrl(relative: string): string;
}

export const mediaUrlFor = (publicUrl: string) => (relative: string) =>
  `${publicUrl}${MEDIA_PREFIX}${relative.split('/').map(encodeURIComponent).join('/')}`;
