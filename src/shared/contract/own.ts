import { z } from 'zod';
import { PLAYER, SUBSCRIPTION_PLANS } from '../constants';
import { PLAN_FEATURES, PLAN_LIMITS } from '../plans';
import { CUSTOM_THEME_ID, DEFAULT_THEME_ID, SESSION_THEMES, THEME_FONTS, type ThemeFont } from '../themes';
import { billingStateSchema } from './billing';
import { messageCategorySchema } from './content';
import { maxElements, multipleOfMessage } from './drf-messages';
import { databaseId, orderSchema, requiredString, typedText } from './fields';
import { isolated, maxCharacters } from './plain';
import { OWN_CATEGORY_NAME_MAX, OWN_MESSAGE_TEXT_MAX, OWN_MUSIC, PLAYLIST_MAX, PLAYLIST_SOURCES } from './portal-plain';

export {
  OWN_CATEGORY_NAME_MAX,
  changedMeanwhileMessage,
  LIST_CHANGED_CODE,
  LIST_CHANGED_MESSAGE,
  MESSAGE_CHANGED_CODE,
  MESSAGE_CHANGED_MESSAGE,
  OWN_MESSAGE_TEXT_MAX,
  OWN_MUSIC,
  PLAYLIST_MAX,
  PLAYLIST_SOURCES,
  type PlaylistSource,
} from './portal-plain';

// A person's own content: their message categories and messages, and the player as they left it
// (docs/product/api.md#own-content).

/** A live share link; null when the thing is not shared. */
export const shareLinkSchema = z.object({ token: z.string(), url: z.string() });
export type ShareLink = z.infer<typeof shareLinkSchema>;

/**
 * Own categories have the library's shape, so the player uses both alike, plus their share link (Pro):
 * the server always sends `share`, null while the category is not shared.
 */
export const ownCategorySchema = messageCategorySchema.extend({ share: shareLinkSchema.nullable().optional() });
export type OwnCategory = z.infer<typeof ownCategorySchema>;
export const ownCategoryListSchema = z.array(ownCategorySchema);
/** The most rows of a plan's limit any plan allows: what a person's list can hold, whatever their plan now. */
const mostOfAnyPlan = (limit: keyof (typeof PLAN_LIMITS)['basic']) =>
  Math.max(...Object.values(PLAN_LIMITS).map((limits) => limits[limit]));
/** A reorder of one's own categories, or of one category's messages: at most what any plan keeps. */
export const ownCategoriesOrderSchema = orderSchema(mostOfAnyPlan('ownCategories'));
export const ownMessagesOrderSchema = orderSchema(mostOfAnyPlan('ownMessages'));
/** The values (its ids, and room for the object around them) that reorder's body may hold, past the usual 1,024. */
export const OWN_MESSAGES_ORDER_VALUES = mostOfAnyPlan('ownMessages') + 16;
export const ownCategoryWriteSchema = z.object({
  name: typedText().max(OWN_CATEGORY_NAME_MAX, maxCharacters(OWN_CATEGORY_NAME_MAX)),
});
/**
 * Why a person cannot have a second category of this name: theirs are unique whatever the case, as the
 * library's are; `taken` is the one they have, as they wrote it.
 */
export const ownCategoryNameTaken = (taken: string) => `You already have a category named “${isolated(taken)}”.`;
export const ownMessageWriteSchema = z.object({
  message_text: typedText().max(OWN_MESSAGE_TEXT_MAX, maxCharacters(OWN_MESSAGE_TEXT_MAX)),
});
/**
 * An edit of a message. `previous_text` is the text the edit began from: when the message reads otherwise
 * now (changed meanwhile in another tab or on another device), the edit is refused with 409 and nothing
 * changes; left out, the last write wins (docs/decisions/062-an-edit-names-the-text-it-began-from.md).
 */
export const ownMessageEditSchema = ownMessageWriteSchema.extend({
  previous_text: requiredString().max(OWN_MESSAGE_TEXT_MAX, maxCharacters(OWN_MESSAGE_TEXT_MAX)).optional(),
});
export type OwnMessageEdit = z.infer<typeof ownMessageEditSchema>;

/** A player setting: an integer within its limits, on one of its steps (docs/product/api.md#own-content). */
const stepped = ({ min, max: maxValue, step }: { min: number; max: number; step: number }) =>
  z
    .number({ error: 'A valid integer is required.' })
    .int({ error: 'A valid integer is required.' })
    .min(min, { error: `Ensure this value is greater than or equal to ${min}.` })
    .max(maxValue, { error: `Ensure this value is less than or equal to ${maxValue}.` })
    .multipleOf(step, { error: multipleOfMessage(step) });

const colour = () => z.string().regex(/^#[0-9a-fA-F]{6}$/, { error: 'Enter a colour as #RRGGBB.' });
const themeIds: [string, ...string[]] = [CUSTOM_THEME_ID, ...SESSION_THEMES.map((theme) => theme.id)];

/** The background and font of a theme of one's own. */
export const customThemeSchema = z.object({
  background: colour(),
  font: z.enum(Object.keys(THEME_FONTS) as [ThemeFont, ...ThemeFont[]]),
});
export type CustomTheme = z.infer<typeof customThemeSchema>;

export const playerSettingsSchema = z
  .object({
    flashSpeed: stepped(PLAYER.flashSpeed),
    displayInterval: stepped(PLAYER.displayInterval),
    messageColor: colour(),
    fontSize: stepped(PLAYER.fontSize),
    theme: z.enum(themeIds, { error: 'Choose one of the themes.' }).default(DEFAULT_THEME_ID),
    /** Present exactly when `theme` is "custom". */
    customTheme: customThemeSchema.optional(),
  })
  .refine((settings) => (settings.theme === CUSTOM_THEME_ID) === (settings.customTheme !== undefined), {
    error: 'A custom theme needs its background and font, and only a custom theme has them.',
    path: ['customTheme'],
  });

export const playlistItemSchema = z.object({
  message_text: requiredString().max(OWN_MESSAGE_TEXT_MAX * 3, maxCharacters(OWN_MESSAGE_TEXT_MAX * 3)),
  source: z.enum(PLAYLIST_SOURCES),
  message_id: databaseId(),
});
export type PlaylistItemWrite = z.infer<typeof playlistItemSchema>;
/**
 * The largest body of a call that carries a playlist (the player's, a saved subliminal's): its most, 1,000 items of
 * 600 characters of up to 4 bytes each in UTF-8 with their sources, ids and the settings (2.5 MB), where most JSON
 * bodies take 1 MiB (docs/decisions/067-a-json-body-holds-what-its-fields-allow.md).
 */
export const PLAYLIST_BODY_BYTES = 3 * 1024 * 1024;
/**
 * The most values (list items, object members) that body holds, counted before it is parsed: an item is 4 (itself
 * and its 3 fields), counted as 8 for fields a client adds and the schema drops, with room for the settings and a
 * sound mix (docs/decisions/069-a-json-body-holds-the-values-its-call-takes.md).
 */
export const PLAYLIST_BODY_VALUES = PLAYLIST_MAX * 8 + 1024;
export const playerWriteSchema = z.object({
  playlist: z.array(playlistItemSchema).max(PLAYLIST_MAX, maxElements(PLAYLIST_MAX)),
  settings: playerSettingsSchema,
});
export type PlayerWrite = z.infer<typeof playerWriteSchema>;
/**
 * A save of the player as the web player sends it: numbered within the page that sends it, so that a save sent as the
 * page is left, while an older one is still on its way, is not overwritten by that older one when it lands last
 * (docs/product/api.md#own-content). A call without them is written as it comes, the last save winning.
 */
export const playerSaveSchema = playerWriteSchema.extend({
  page_id: z.uuid({ error: 'Must be a valid UUID.' }).optional(),
  save_number: z
    .number({ error: 'A valid integer is required.' })
    .int({ error: 'A valid integer is required.' })
    .min(1, { error: 'Ensure this value is greater than or equal to 1.' })
    .optional(),
});
export type PlayerSave = z.infer<typeof playerSaveSchema>;
/** The player as last saved from any device; `updated_at` is null until the first save. */
export const playerStateSchema = playerWriteSchema.extend({ updated_at: z.string().nullable() });
export type PlayerState = z.infer<typeof playerStateSchema>;

const limitsShape = z.object(
  Object.fromEntries(Object.keys(PLAN_LIMITS.basic).map((limit) => [limit, z.number().int()])) as Record<
    keyof (typeof PLAN_LIMITS)['basic'],
    z.ZodNumber
  >,
);
export const planStateSchema = z.object({
  plan: z.enum(SUBSCRIPTION_PLANS),
  features: z.record(z.enum(Object.keys(PLAN_FEATURES) as [keyof typeof PLAN_FEATURES]), z.boolean()),
  limits: limitsShape,
  usage: limitsShape,
  /** How the plan is paid for (docs/product/api.md#billing). */
  billing: billingStateSchema,
});
export type PlanState = z.infer<typeof planStateSchema>;

/** `403` for a call or an amount the person's plan does not include. */
export const planRequiredErrorSchema = z.object({
  detail: z.string(),
  code: z.enum(['plan_required', 'plan_limit']),
  required_plan: z.enum(SUBSCRIPTION_PLANS).optional(),
});
export type PlanRequiredError = z.infer<typeof planRequiredErrorSchema>;

export const ownTrackSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** A signed URL to play it, valid for a while like every media URL. */
  url: z.string(),
  bytes: z.number().int(),
  created_at: z.string(),
});
export type OwnTrack = z.infer<typeof ownTrackSchema>;
export const ownMusicSchema = z.object({
  tracks: z.array(ownTrackSchema),
  used_bytes: z.number().int(),
  max_bytes: z.number().int(),
  max_tracks: z.number().int(),
});
export type OwnMusic = z.infer<typeof ownMusicSchema>;
/** The upload's text field; without a name the file's own name (less its extension) is used. */
export const ownTrackFieldsSchema = z.object({
  name: typedText().max(OWN_MUSIC.nameMax, maxCharacters(OWN_MUSIC.nameMax)),
});
