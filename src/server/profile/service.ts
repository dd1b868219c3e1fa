import { eq } from 'drizzle-orm';
import type { Profile } from '@shared/contract';
import type { Db } from '../db/client';
import { profiles, users } from '../db/schema';
import type { MediaUrls } from '../media/urls';

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

export function toProfile(media: MediaUrls, row: ProfileRow): Profile {
  return {
    first_name: row.firstName,
    last_name: row.lastName,
    user_email: row.email,
    profile_image: row.profileImage ? media.url(row.profileImage) : null,
    subscription_plan: row.subscriptionPlan,
  };
}

/** The user's profile; a user without a profile row gets one (basic plan) on first read. */
export async function readProfile(db: Db, media: MediaUrls, userId: number): Promise<Profile> {
  let row = await readRow(db, userId);
  if (!row) {
    await db.insert(profiles).values({ userId }).onConflictDoNothing();
    row = await readRow(db, userId);
  }
  if (!row) throw new Error(`user ${userId} has no profile after creating it`);
  return toProfile(media, row);
}

export interface ProfileChanges {
  firstName: string;
  lastName: string;
  /** Relative media path of the new image; undefined keeps the current one. */
  profileImage?: string | undefined;
}

/** Saves names (and image) in the caller's transaction; returns the image path it replaced, if any. */
export async function updateProfile(tx: Db, userId: number, changes: ProfileChanges): Promise<{ replacedImage: string | null }> {
  await tx.insert(profiles).values({ userId }).onConflictDoNothing();
  const [current] = await tx
    .select({ profileImage: profiles.profileImage })
    .from(profiles)
    .where(eq(profiles.userId, userId))
    .for('update');
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
