import { eq } from 'drizzle-orm';
import type { Profile } from '@shared/contract';
import type { Db } from '../db/client';
import { profiles, users } from '../db/schema';
import type { MediaUrls } from '../media/urls';
import type { Notices } from '../cluster/notices';
import { LoadingCache } from '../cache/loading-cache';
import { assertStillSignedIn } from '../auth/authenticate';
import type { SessionUser } from '../auth/sessions';
import { lockUserRow } from '../db/user-lock';

interface ProfileRow {
  firstName: string;
  lastName: string;
  email: string;
  profileImage: string | null;
  subscriptionPlan: Profile['subscription_plan'];
}

async function readRow(db: Db, userId: number): Promise<ProfileRow | undefined> {
  const [row] = await db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      profileImage: profiles.profileImage,
      subscriptionPlan: profiles.subscriptionPlan,
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId));
  return row;
}

export async function toProfile(media: MediaUrls, row: ProfileRow): Promise<Profile> {
  return {
    first_name: row.firstName,
    last_name: row.lastName,
    user_email: row.email,
    profile_image: row.profileImage ? await media.url(row.profileImage) : null,
    subscription_plan: row.subscriptionPlan,
  };
}

/** The user's profile row; a user without one gets one (basic plan) on first read. */
async function readOrCreateRow(db: Db, userId: number): Promise<ProfileRow> {
  let row = await readRow(db, userId);
  if (!row) {
    await db.insert(profiles).values({ userId }).onConflictDoNothing();
    row = await readRow(db, userId);
  }
  if (!row) throw new Error(`user ${userId} has no profile after creating it`);
  return row;
}

export type ProfileReader = (userId: number) => Promise<Profile>;

/**
 * Profiles are read far more often than changed: rows are kept in memory, and every change (here, by
 * staff, by an account flow) announces `user-changed`, which drops the row in every worker.
 */
export function createProfileReader(db: Db, media: MediaUrls, notices: Notices): ProfileReader {
  const rows = new LoadingCache<number, ProfileRow>({ ttlMs: 30_000, maxEntries: 20_000 });
  notices.subscribe((notice) => notice.kind === 'user-changed' && rows.delete(notice.userId));
  // The image URL is signed at each read: its signature window moves on, the row does not.
  return async (userId) => toProfile(media, await rows.get(userId, () => readOrCreateRow(db, userId)));
}

export interface ProfileChanges {
  firstName: string;
  lastName: string;
  /** Relative media path of the new image; undefined keeps the current one. */
  profileImage?: string | undefined;
}

/**
 * Saves names (and image) in the caller's transaction; returns the image path it replaced, if any. A session
 * ended or an account deactivated or deleted since the request was let in (its picture still streaming) is
 * answered 401 and nothing is kept.
 */
export async function updateProfile(
  tx: Db,
  user: SessionUser,
  changes: ProfileChanges,
): Promise<{ replacedImage: string | null }> {
  const userId = user.id;
  // The profile's row, then the person's: the order deleting the account locks them in, so neither waits on the other.
  const [current] = await tx
    .select({ profileImage: profiles.profileImage })
    .from(profiles)
    .where(eq(profiles.userId, userId))
    .for('update');
  await lockUserRow(tx, userId);
  await assertStillSignedIn(tx, user);
  if (!current) await tx.insert(profiles).values({ userId }).onConflictDoNothing();
  await tx
    .update(users)
    .set({ firstName: changes.firstName, lastName: changes.lastName, updatedAt: new Date() })
    .where(eq(users.id, userId));
  if (changes.profileImage !== undefined) {
    await tx
      .update(profiles)
      .set({ profileImage: changes.profileImage, updatedAt: new Date() })
      .where(eq(profiles.userId, userId));
  }
  const previous = current?.profileImage ?? null;
  const replaced = changes.profileImage !== undefined && previous !== changes.profileImage ? previous : null;
  return { replacedImage: replaced };
}

/** Clears the profile image; returns the path it named, for the caller to release after the commit. */
export async function clearProfileImage(db: Db, userId: number): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ profileImage: profiles.profileImage })
      .from(profiles)
      .where(eq(profiles.userId, userId))
      .for('update');
    if (!current?.profileImage) return null;
    await tx.update(profiles).set({ profileImage: null, updatedAt: new Date() }).where(eq(profiles.userId, userId));
    return current.profileImage;
  });
}
