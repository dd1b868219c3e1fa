import { eq, sql } from 'drizzle-orm';
import { PLAYER, type SubscriptionPlan } from '@shared/constants';
import {
  playerSettingsSchema,
  playerWriteSchema,
  type PlayerSave,
  type PlayerState,
  type PlayerWrite,
} from '@shared/contract';
import { snapToStep } from '@shared/numbers';
import { planCovers, planName } from '@shared/plans';
import { DEFAULT_PLAYER_SETTINGS, findTheme, planOfTheme, sameTheme } from '@shared/themes';
import type { Db } from '../db/client';
import { playerStates } from '../db/schema';
import { planOfSignedIn, planRequired } from './service';

// The player as a person last left it, kept for every device: the last save wins.

type PlayerSettings = PlayerWrite['settings'];

/** Stored numbers saved between their steps (before steps were checked) at their nearest step, as the player shows them. */
function onSteps(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const settings: Record<string, unknown> = { ...value };
  for (const key of ['flashSpeed', 'displayInterval', 'fontSize'] as const) {
    const setting = settings[key];
    if (typeof setting === 'number') settings[key] = snapToStep(setting, PLAYER[key]);
  }
  return settings;
}

/**
 * Settings as stored: saved after validation, parsed again so a later, stricter contract never
 * answers what it would refuse (what no longer passes falls back to the defaults). Numbers between
 * steps are read at the nearest step, so what a person reads saves again (docs/product/api.md#own-content).
 */
export function storedSettings(value: unknown): PlayerSettings {
  const stored = playerSettingsSchema.safeParse(onSteps(value));
  return stored.success ? stored.data : DEFAULT_PLAYER_SETTINGS;
}

/**
 * Refuses a theme the plan does not include (`403 plan_required`). What is kept from a higher plan
 * stays usable as it is (`kept`): a downgrade makes it read-only, so saving the player with its theme
 * unchanged still works.
 */
export function assertThemeIncluded(plan: SubscriptionPlan, settings: PlayerSettings, kept?: PlayerSettings): void {
  const required = planOfTheme(settings.theme);
  if (planCovers(plan, required) || (kept && sameTheme(kept, settings))) return;
  const theme = findTheme(settings.theme);
  throw planRequired(
    theme
      ? `The ${theme.name} theme is part of the ${planName(required)} plan.`
      : `Themes of your own are part of the ${planName(required)} plan.`,
    required,
  );
}

export async function readPlayer(db: Db, userId: number): Promise<PlayerState> {
  const [row] = await db.select().from(playerStates).where(eq(playerStates.userId, userId));
  if (!row) return { playlist: [], settings: DEFAULT_PLAYER_SETTINGS, updated_at: null };
  const stored = playerWriteSchema.safeParse({ playlist: row.playlist, settings: storedSettings(row.settings) });
  return {
    ...(stored.success ? stored.data : { playlist: [], settings: DEFAULT_PLAYER_SETTINGS }),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * Where the row keeps which page wrote it last and that save's number, beside the settings (read back through the
 * settings' schema, which drops it): a save of the same page numbered lower is older than what is kept.
 */
const LAST_SAVE_KEY = 'lastSave';

export async function savePlayer(db: Db, userId: number, state: PlayerSave): Promise<PlayerState> {
  const { page_id: page, save_number: number, ...write } = state;
  const plan = await planOfSignedIn(db, userId);
  if (!planCovers(plan, planOfTheme(write.settings.theme)))
    assertThemeIncluded(plan, write.settings, (await readPlayer(db, userId)).settings);
  const settings = page && number ? { ...write.settings, [LAST_SAVE_KEY]: { page, number } } : write.settings;
  const [row] = await db
    .insert(playerStates)
    .values({ userId, playlist: write.playlist, settings })
    .onConflictDoUpdate({
      target: playerStates.userId,
      set: { playlist: write.playlist, settings, updatedAt: sql`now()` },
      // A save that left its page before an older one of the same page landed is kept: the older one is not written
      // (docs/product/content.md#kept-with-the-account).
      setWhere:
        page && number
          ? sql`${playerStates.settings} -> ${LAST_SAVE_KEY} ->> 'page' is distinct from ${page}
              or (${playerStates.settings} -> ${LAST_SAVE_KEY} ->> 'number')::bigint < ${number}`
          : undefined,
    })
    .returning({ updatedAt: playerStates.updatedAt });
  // Not written, a later save of the same page being kept: the answer is what the account holds.
  if (!row) return readPlayer(db, userId);
  return { ...write, updated_at: row.updatedAt.toISOString() };
}
