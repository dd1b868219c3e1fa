import { asc, desc, eq } from 'drizzle-orm';
import type { AudioItem, AudioKind, DesktopApplication, MessageCategory } from '@shared/contract';
import type { Db } from '../db/client';
import { audioItems, desktopApplications, messageCategories, messages } from '../db/schema';
import { installerDownloadName, type MediaUrls } from '../media/urls';

export async function listMessageCategories(db: Db): Promise<MessageCategory[]> {
  const categories = await db
    .select({ id: messageCategories.id, name: messageCategories.name })
    .from(messageCategories)
    .orderBy(asc(messageCategories.position), asc(messageCategories.id));
  const rows = await db
    .select({ id: messages.id, categoryId: messages.categoryId, message_text: messages.messageText })
    .from(messages)
    .orderBy(asc(messages.position), asc(messages.id));
  const byCategory = new Map<number, MessageCategory['messages']>();
  for (const { categoryId, ...message } of rows) {
    const list = byCategory.get(categoryId) ?? [];
    list.push(message);
    byCategory.set(categoryId, list);
  }
  return categories.map((category) => ({ ...category, messages: byCategory.get(category.id) ?? [] }));
}

export async function listAudioItems(db: Db, media: MediaUrls, kind: AudioKind): Promise<AudioItem[]> {
  const rows = await db
    .select()
    .from(audioItems)
    .where(eq(audioItems.kind, kind))
    .orderBy(asc(audioItems.position), asc(audioItems.id));
  return Promise.all(
    rows.map(async (row) => ({
      id: row.id,
      name: row.name,
      description: row.description,
      cover_image: row.coverImage ? await media.url(row.coverImage) : null,
      audio_file: await media.url(row.audioFile),
      date_added: row.dateAdded.toISOString(),
    })),
  );
}

export async function listDesktopApplications(db: Db, media: MediaUrls): Promise<DesktopApplication[]> {
  // Newest first, as staff list them: the first Download is the latest installer the page offers.
  const rows = await db
    .select()
    .from(desktopApplications)
    .orderBy(desc(desktopApplications.createdAt), desc(desktopApplications.id));
  return Promise.all(
    rows.map(async (row) => ({
      id: row.id,
      application_version: row.applicationVersion,
      description: row.description,
      application_file: await media.url(row.applicationFile, {
        downloadName: installerDownloadName(row.applicationVersion, row.applicationFile),
      }),
    })),
  );
}
