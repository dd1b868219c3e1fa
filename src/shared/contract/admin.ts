import { z } from 'zod';
import { SUBSCRIPTION_PLANS } from '../constants';
import { pendingEmailChangeSchema } from './auth';
import { adminBillingSchema } from './billing';
import { drfMessage, maxElements } from './drf-messages';
import { unstorableTextMessages } from './errors';
import { AUDIO_KINDS, PLAYLIST_MAX } from './portal-plain';
import {
  MAX_DATABASE_ID,
  optionalTypedText,
  orderSchema,
  pathId,
  queryInteger,
  refuseUnstorableText,
  requiredString,
  typedText,
} from './fields';
import { hasVisibleText, isolated, maxCharacters } from './plain';
import { fillPath } from './paths';

// Content administration for staff (docs/product/content.md#admin-screens): users, message categories, audio items and
// desktop applications. File fields are signed absolute URLs (under /media/, or the S3 storage's own).

export const ADMIN_API = {
  users: '/api/admin/users/',
  user: '/api/admin/users/:id/',
  userEmailChange: '/api/admin/users/:id/email-change/',
  categories: '/api/admin/message-categories/',
  categoriesOrder: '/api/admin/message-categories/order/',
  categoriesExport: '/api/admin/message-categories/export/',
  categoriesImport: '/api/admin/message-categories/import/',
  category: '/api/admin/message-categories/:id/',
  categoryMessages: '/api/admin/message-categories/:id/messages/',
  categoryMessagesOrder: '/api/admin/message-categories/:id/messages/order/',
  message: '/api/admin/messages/:id/',
  audioItems: '/api/admin/audio/:kind/',
  audioItem: '/api/admin/audio/:kind/:id/',
  audioItemFiles: '/api/admin/audio/:kind/:id/files/',
  applications: '/api/admin/applications/',
  application: '/api/admin/applications/:id/',
  supportRequests: '/api/admin/support-requests/',
  supportRequest: '/api/admin/support-requests/:id/',
  programs: '/api/admin/programs/',
  program: '/api/admin/programs/:slug/',
  jobs: '/api/admin/jobs/',
  jobRetry: '/api/admin/jobs/:id/retry/',
  backups: '/api/admin/backups/',
} as const;

/** Fills `:name` placeholders of an ADMIN_API path. */
export const adminPath = fillPath;

export const idParamsSchema = z.object({ id: pathId() });
export const audioKindParamsSchema = z.object({ kind: z.enum(AUDIO_KINDS) });
export const audioItemParamsSchema = audioKindParamsSchema.extend({ id: pathId() });

// Users

/**
 * Why a user's billing needs staff (docs/product/api.md#users); one definition, which the list's filter and each
 * user's `attention` both follow: `payment_failed`, the subscription is past due (a renewal failed, Stripe
 * retries); `second_subscription`, a second subscription is not settled yet (being cancelled and refunded, or
 * Stripe refused); `deactivated_billing`, staff deactivated the account while its subscription still renews.
 */
export const USER_ATTENTION_REASONS = ['payment_failed', 'second_subscription', 'deactivated_billing'] as const;
export type UserAttentionReason = (typeof USER_ATTENTION_REASONS)[number];

export const adminUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  is_active: z.boolean(),
  is_staff: z.boolean(),
  subscription_plan: z.enum(SUBSCRIPTION_PLANS),
  /** ISO 8601 timestamps. */
  date_joined: z.string(),
  last_login: z.string().nullable(),
  /** When staff last deactivated the account (kept when they reactivate it); null if they never did. */
  deactivated_at: z.string().nullable(),
  /** The Stripe subscription behind the plan; an operator's plan change holds until the next webhook. */
  billing: adminBillingSchema,
  /** Why the user's billing needs staff (USER_ATTENTION_REASONS); empty when it does not. */
  attention: z.array(z.enum(USER_ATTENTION_REASONS)),
  /**
   * The change of e-mail address the person asked for, waiting for its link to be opened (the address as typed
   * and when), as their profile shows it (docs/decisions/061-a-change-of-address-waits-in-the-account.md); null
   * when none waits.
   */
  pending_email_change: pendingEmailChangeSchema.nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUserListSchema = z.object({
  /** One page of the users matching the query, newest first: at most ADMIN_USER_PAGE_SIZE. */
  results: z.array(adminUserSchema),
  /** Users matching the query, on every page. */
  count: z.number().int(),
  /** Users whose billing needs staff (`attention` not empty), whatever the query. */
  needs_attention: z.number().int(),
  /**
   * The newest user the pages hold (the query's `newest_id`, else the latest sign-up's id; null with no users):
   * passed back as `newest_id` for the next pages, so that people signing up meanwhile shift no one.
   */
  newest_id: z.number().int().nullable(),
  /** Users matching the query who signed up after `newest_id`: on none of these pages (0 without one). */
  newer: z.number().int(),
  /**
   * Users matching the query before the first one on this page, in the list's order (all of `count` when the
   * page is empty): "51–100 of …" starts at `offset + 1`. After a deletion a page read from `after_id` or
   * `before_id` can start between two pages of 50; this says where it does.
   */
  offset: z.number().int(),
  /**
   * This page's number: 1 plus the pages Previous takes to the first (the `offset` users, 50 a page, the last
   * one first), so the pager's "Page 2 of 3" is what paging from here finds. Past the last page, one more than
   * `pages`.
   */
  page: z.number().int(),
  /** The pages from the first to the last, through this one: `page` plus the pages Next takes to the end (at least 1). */
  pages: z.number().int(),
});
export type AdminUserList = z.infer<typeof adminUserListSchema>;
export const ADMIN_USER_PAGE_SIZE = 50;

/** A whole number from 1 to the largest PostgreSQL integer, in a query. */
const databaseId = () =>
  queryInteger().pipe(
    z
      .number()
      .min(1, { error: 'Ensure this value is greater than or equal to 1.' })
      .max(MAX_DATABASE_ID, { error: `Ensure this value is less than or equal to ${MAX_DATABASE_ID}.` }),
  );

export const adminUserQuerySchema = z
  .object({
    /** Part of the e-mail or of the name ("first last"), any case. */
    search: z.string().trim().max(254).optional(),
    /** From 1; a page past the last one is empty (`count` still says how many match). */
    page: queryInteger()
      .pipe(
        z
          .number()
          .min(1, { error: 'Ensure this value is greater than or equal to 1.' })
          // No page can start past the last possible user (ids are PostgreSQL integers).
          .max(MAX_DATABASE_ID, { error: `Ensure this value is less than or equal to ${MAX_DATABASE_ID}.` }),
      )
      .default(1),
    /** `true`: only users whose billing needs staff. */
    attention: z.enum(['true', 'false'], { error: 'Must be true or false.' }).optional(),
    /**
     * Only users up to this one (ids are given in sign-up order): the first page's `newest_id`, which keeps the
     * pages as they were when it was read (offsets do not move when people sign up).
     */
    newest_id: databaseId().optional(),
    /**
     * The page after the one shown: the users older than this one, the last it showed. Unlike `page` alone, a
     * user deleted meanwhile moves no one past it (the page is where it is; `page` is then only its number).
     */
    after_id: databaseId().optional(),
    /** The page before the one shown: the users newer than this one, the first it showed (as `after_id`). */
    before_id: databaseId().optional(),
  })
  .refine((query) => query.after_id === undefined || query.before_id === undefined, {
    path: ['before_id'],
    error: 'Give after_id or before_id, not both.',
  });
export type AdminUserQuery = z.input<typeof adminUserQuerySchema>;
/** The query as checked: what the API and the CLI hand the list. */
export type AdminUserQueryChecked = z.output<typeof adminUserQuerySchema>;

export const adminUserUpdateSchema = z
  .object({
    subscription_plan: z.enum(SUBSCRIPTION_PLANS, { error: `Choose one of: ${SUBSCRIPTION_PLANS.join(', ')}.` }),
    is_active: z.boolean({ error: 'Must be true or false.' }),
  })
  .partial()
  .refine((body) => body.subscription_plan !== undefined || body.is_active !== undefined, {
    error: 'Give subscription_plan or is_active.',
  });
export type AdminUserUpdate = z.infer<typeof adminUserUpdateSchema>;

// Message categories and messages

export const CATEGORY_NAME_MAX = 100;
export const MESSAGE_TEXT_MAX = 500;

/**
 * The library's names and messages are texts staff type and everyone reads: a control or direction character inside is
 * refused, as in a person's own (docs/decisions/083-a-staff-edit-names-the-text-it-began-from.md).
 */
export const categoryNameField = () => typedText().max(CATEGORY_NAME_MAX, maxCharacters(CATEGORY_NAME_MAX));
export const messageTextField = () => typedText().max(MESSAGE_TEXT_MAX, maxCharacters(MESSAGE_TEXT_MAX));

export const adminMessageSchema = z.object({
  id: z.number().int(),
  message_text: z.string(),
  position: z.number().int(),
});
export type AdminMessage = z.infer<typeof adminMessageSchema>;
export const adminCategorySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  position: z.number().int(),
  messages: z.array(adminMessageSchema),
});
export type AdminCategory = z.infer<typeof adminCategorySchema>;
export const adminCategoryListSchema = z.array(adminCategorySchema);

export const categoryWriteSchema = z.object({ name: categoryNameField() });
export type CategoryWrite = z.infer<typeof categoryWriteSchema>;
/**
 * A rename of a library category. `previous_name` is the name the edit began from, read as stored (trimmed only): as a
 * message's `previous_text`, a category named otherwise now is refused with 409 and keeps its name; left out, the last
 * write wins (docs/decisions/084-a-staff-edit-of-a-name-names-the-name-it-began-from.md).
 */
export const categoryEditSchema = categoryWriteSchema.extend({
  previous_name: requiredString().max(CATEGORY_NAME_MAX, maxCharacters(CATEGORY_NAME_MAX)).optional(),
});
export const messageWriteSchema = z.object({ message_text: messageTextField() });
export type MessageWrite = z.infer<typeof messageWriteSchema>;
/**
 * An edit of a library message. `previous_text` is the text the edit began from: when the message reads otherwise now
 * (another tab, another staff member), the edit is refused with 409 and nothing changes; left out, the last write wins
 * (docs/decisions/083-a-staff-edit-names-the-text-it-began-from.md).
 */
export const messageEditSchema = messageWriteSchema.extend({
  // Read as stored (trimmed only): a message written before its text was checked is compared with what it holds.
  previous_text: requiredString().max(MESSAGE_TEXT_MAX, maxCharacters(MESSAGE_TEXT_MAX)).optional(),
});

/** The export file: every category in order, each with its messages in order. */
export const messagesExportSchema = z.object({
  categories: z.array(z.object({ name: z.string(), messages: z.array(z.string()) })),
});

/**
 * What the library may hold (docs/product/errors-and-limits.md#validation-rules): far above the seeded library
 * (10 categories of 18), and a category no longer than the player's playlist, where Add puts it whole. A category
 * or a message past them is refused (400), so a reorder, which names every row of its list, names at most these.
 */
export const LIBRARY_LIMITS = { categories: 500, messagesPerCategory: PLAYLIST_MAX } as const;
export const LIBRARY_FULL_MESSAGE = `The library already holds ${LIBRARY_LIMITS.categories} categories, the most it may hold. Delete one first.`;
export const CATEGORY_FULL_MESSAGE = `This category already holds ${LIBRARY_LIMITS.messagesPerCategory.toLocaleString('en-US')} messages, the most a playlist takes. Start another category.`;
/** Why an import is refused when the categories it adds would take the library past its most. */
export const importPastLibraryMessage = (total: number) =>
  `The library may hold at most ${LIBRARY_LIMITS.categories} categories: this file would make it ${total.toLocaleString('en-US')}.`;

/** A reorder of the library's categories, or of one category's messages: at most what the list can hold. */
export const categoriesOrderSchema = orderSchema(LIBRARY_LIMITS.categories);
export const categoryMessagesOrderSchema = orderSchema(LIBRARY_LIMITS.messagesPerCategory);

/** What one import may hold: the library's limits, and 10,000 messages in all. */
export const MESSAGES_IMPORT_LIMITS = {
  categories: LIBRARY_LIMITS.categories,
  messagesPerCategory: LIBRARY_LIMITS.messagesPerCategory,
  messages: 10_000,
  /**
   * The request body (the file as sent): room for the most the file may hold, 10,000 messages of 500 characters of
   * up to 4 bytes each (20 MB) with their names and quotes, where every other JSON body takes 1 MiB.
   */
  bytes: 24 * 1024 * 1024,
  /**
   * The most values (list items, object members) the file holds, counted before it is parsed: its messages, and 8
   * for each category (docs/decisions/069-a-json-body-holds-the-values-its-call-takes.md).
   */
  values: 10_000 + LIBRARY_LIMITS.categories * 8 + 1024,
} as const;

/** Why an import refuses a file naming a category twice (whatever the case of its name). */
export const CATEGORY_NAMES_UNIQUE_MESSAGE = 'Category names must be unique.';

/** Why an import refuses `"messages": []`: it would leave the category empty for members. */
export const IMPORT_CATEGORY_EMPTY_MESSAGE = 'A category needs at least one message.';

/** A category of an import file: a name, and at least one message (a category without any plays nothing). */
const importedCategorySchema = z.object({
  name: categoryNameField().superRefine(refuseUnstorableText),
  messages: z
    .array(messageTextField().superRefine(refuseUnstorableText))
    .min(1, { error: IMPORT_CATEGORY_EMPTY_MESSAGE })
    .max(MESSAGES_IMPORT_LIMITS.messagesPerCategory, {
      error: `Ensure this category has no more than ${MESSAGES_IMPORT_LIMITS.messagesPerCategory} messages.`,
    }),
});

/**
 * Where in a file a category's problem is, for people: `Category 2 ("Calm"), message 5`. The list's errors
 * stay `{"categories": ["…"]}` as every field's do (docs/product/errors-and-limits.md#error-bodies), so each
 * names its category itself.
 */
function importedCategoryLabel(index: number, item: unknown, path: readonly PropertyKey[]): string {
  const raw = item && typeof item === 'object' ? (item as { name?: unknown }).name : undefined;
  // A name that cannot be kept (a NUL, a lone surrogate) is not repeated: its place says which it is.
  const name = typeof raw === 'string' && unstorableTextMessages(raw).length === 0 ? [...raw.trim()] : [];
  // Cut between characters, not inside one (an emoji's halves would be a lone surrogate).
  const shown = name.length > 40 ? `${name.slice(0, 40).join('')}…` : name.join('');
  // Isolated (decision 064): a right-to-left name or an override stored before 063 stays inside its quotes.
  const category = `Category ${index + 1}${hasVisibleText(shown) ? ` ("${isolated(shown)}")` : ''}`;
  const [field, at] = path;
  if (field === 'messages' && typeof at === 'number') return `${category}, message ${at + 1}`;
  return typeof field === 'string' ? `${category}, ${field}` : category;
}

/**
 * The import file, the export's shape: categories in order, each with its messages in order. Each category is
 * checked on its own so that a refusal names it (a list's errors otherwise say only the field's words).
 */
export const messagesFileSchema = z.object({
  categories: z
    .array(z.unknown())
    .max(MESSAGES_IMPORT_LIMITS.categories, maxElements(MESSAGES_IMPORT_LIMITS.categories))
    .transform((items, ctx) =>
      items.flatMap((item, index) => {
        // In DRF's words wherever it is parsed (the browser has no process-wide wording, the server has).
        const parsed = importedCategorySchema.safeParse(item, { error: drfMessage });
        if (parsed.success) return [parsed.data];
        for (const issue of parsed.error.issues)
          ctx.issues.push({
            code: 'custom',
            input: item,
            message: `${importedCategoryLabel(index, item, issue.path)}: ${issue.message}`,
          });
        return [];
      }),
    )
    .pipe(
      z
        .array(z.object({ name: z.string(), messages: z.array(z.string()) }))
        // Whatever their case, as in the library ("Calm" and "calm" are one name).
        .refine((list) => new Set(list.map((c) => c.name.toLowerCase())).size === list.length, {
          error: CATEGORY_NAMES_UNIQUE_MESSAGE,
        })
        .refine((list) => list.reduce((n, c) => n + c.messages.length, 0) <= MESSAGES_IMPORT_LIMITS.messages, {
          error: `Ensure this file has no more than ${MESSAGES_IMPORT_LIMITS.messages} messages.`,
        }),
    ),
});
export type MessagesFile = z.infer<typeof messagesFileSchema>;

export const messagesImportResultSchema = z.object({
  categories_created: z.number().int(),
  categories_updated: z.number().int(),
  messages: z.number().int(),
});
export type MessagesImportResult = z.infer<typeof messagesImportResultSchema>;

// Audio items (multipart: name, description, audio, cover)

export const AUDIO_NAME_MAX = 200;
export const DESCRIPTION_MAX = 2000;

/** A description staff type and members read (an audio item's, an installer's): a typed text that may be empty. */
export const descriptionField = () => optionalTypedText().max(DESCRIPTION_MAX, maxCharacters(DESCRIPTION_MAX));
const audioNameField = () => typedText().max(AUDIO_NAME_MAX, maxCharacters(AUDIO_NAME_MAX));

export const audioTextFieldsSchema = z.object({
  name: audioNameField(),
  description: descriptionField().default(''),
});
/** Why an edit of an audio item that changes nothing is refused. */
export const AUDIO_UPDATE_EMPTY_MESSAGE = 'Give name or description.';
/**
 * An edit of an audio item: its name, its description, or both; what is left out stays as it is, and a body that
 * gives neither is refused (400), as a user update giving neither plan nor state is. `previous_name` and
 * `previous_description` are what the edit began from, read as stored: an item that reads otherwise now is refused
 * with 409 and stays as it is (docs/decisions/084-a-staff-edit-of-a-name-names-the-name-it-began-from.md).
 */
export const audioItemUpdateSchema = z
  .object({
    name: audioNameField().optional(),
    description: descriptionField().optional(),
    previous_name: requiredString().max(AUDIO_NAME_MAX, maxCharacters(AUDIO_NAME_MAX)).optional(),
    previous_description: z
      .string({ error: 'Not a valid string.' })
      .trim()
      .max(DESCRIPTION_MAX, maxCharacters(DESCRIPTION_MAX))
      .optional(),
  })
  .refine((body) => body.name !== undefined || body.description !== undefined, {
    error: AUDIO_UPDATE_EMPTY_MESSAGE,
  });
export type AudioItemUpdate = z.infer<typeof audioItemUpdateSchema>;

export const adminAudioItemSchema = z.object({
  id: z.number().int(),
  kind: z.enum(AUDIO_KINDS),
  name: z.string(),
  description: z.string(),
  cover_image: z.string().nullable(),
  audio_file: z.string(),
  position: z.number().int(),
  date_added: z.string(),
});
export type AdminAudioItem = z.infer<typeof adminAudioItemSchema>;
export const adminAudioItemListSchema = z.array(adminAudioItemSchema);

// Desktop applications (multipart: application_version, description, application_file)

export const APP_VERSION_MAX = 50;
export const INSTALLER_EXTENSIONS = ['.exe', '.msi', '.dmg', '.pkg', '.zip', '.AppImage', '.deb'] as const;

export const applicationTextFieldsSchema = z.object({
  application_version: typedText().max(APP_VERSION_MAX, maxCharacters(APP_VERSION_MAX)),
  description: descriptionField().default(''),
});

export const adminApplicationSchema = z.object({
  id: z.number().int(),
  application_version: z.string(),
  description: z.string(),
  application_file: z.string(),
  size_bytes: z.number().int().nullable(),
  created_at: z.string(),
});
export type AdminApplication = z.infer<typeof adminApplicationSchema>;
export const adminApplicationListSchema = z.array(adminApplicationSchema);

/** Upload limits the screens show and check before sending; the server enforces its own. */
export const UPLOAD_LIMITS = {
  audioBytes: 200 * 1024 * 1024,
  coverBytes: 15 * 1024 * 1024,
  /** Default of MAX_APPLICATION_BYTES. */
  applicationBytes: 500 * 1024 * 1024,
} as const;
