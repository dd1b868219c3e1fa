import { eq, sql } from 'drizzle-orm';
import { PLAYER } from '@shared/constants';
import { playerWriteSchema, type PlayerState, type PlayerWrite } from '@shared/contract';
import type { Db } from '../db/client';
import { playerStates } from '../db/schema';

// The player as a person last left it, kept for every device: the last save wins.

const DEFAULT_PLAYER: PlayerWrite = {
  playlist: [],
  settings: {
    flashSpeed: PLAYER.flashSpeed.default,
    displayInterval: PLAYER.displayInterval.default,
    messageColor: PLAYER.messageColor.default,
    fontSize: PLAYER.fontSize.default,
    theme: 'classic',
  },
};

export async function readPlayer(db: Db, userId: number): Promise<PlayerState> {
  const [row] = await db.select().from(playerStates).where(eq(playerStates.userId, userId));
  if (!row) return { ...DEFAULT_PLAYER, updated_at: null };
  // Stored by savePlayer after validation; parsed again so a later, stricter contract never answers
  // what it would refuse (what no longer passes falls back to the defaults).
  const stored = playerWriteSchema.safeParse({ playlist: row.playlist, settings: row.settings });
  return { ...(stored.success ? stored.data : DEFAULT_PLAYER), updated_at: row.updatedAt.toISOString() };
}

export async function savePlayer(db: Db, userId: number, state: PlayerWrite): Promise<PlayerState> {
  const [row] = await db
    .insert(playerStates)
    .values({ userId, playlist: state.playlist, settings: state.settings })
    .onConflictDoUpdate({
      target: playerStates.userId,
      set: { playlist: state.playlist, settings: state.settings, updatedAt: sql`now()` },
    })
    .returning({ updatedAt: playerStates.updatedAt });
  return { ...state, updated_at: row!.updatedAt.toISOString() };
}
