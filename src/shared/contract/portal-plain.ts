import type { SubscriptionPlan } from '../constants';
import { planName } from '../plans';
import { API } from './paths';

// The portal's plain constants, without zod: a page that shows one of these lists or limits imports it
// from here and builds no schema (docs/decisions/030-the-browser-reads-answers-the-server-checked.md).
// A module apart from plain.ts, which the lean sign-in pages load whole. The schema modules of their
// domains re-export them.

export const BILLING_MESSAGES = {
  /** The 503 body's detail of every billing call on a server with no Stripe keys. */
  notConfigured: 'Payments are not set up on this server.',
  /** 409 from checkout: a live subscription is changed in the Customer Portal, never bought twice. */
  alreadySubscribed: 'You already have a subscription. Change or cancel it in the billing portal.',
  /**
   * 400 from checkout (its `plan` field): the person has that plan or a higher one already, as staff can
   * grant one without payment. Checkout sells only a plan above the one a person has.
   */
  planHeld: (held: SubscriptionPlan, asked: SubscriptionPlan) =>
    held === asked
      ? `You have the ${planName(held)} plan already.`
      : `Your ${planName(held)} plan already includes everything in ${planName(asked)}.`,
  /**
   * 409 from checkout: another request of the person's (a second click, another tab) has been opening a
   * Checkout page for longer than a request waits for it; nothing was opened.
   */
  checkoutOpening: 'A Checkout page is already being opened for you. Please try again in a moment.',
  /** 409 from the portal: no Stripe customer yet (nothing was ever bought). */
  noCustomer: 'There is no billing account yet. Choose a plan first.',
  /** 503 when Stripe could not be reached or refused the call; nothing was charged. */
  /** 503 from DELETE /api/users/me/ when the live subscription could not be cancelled first. */
  cancelBeforeDeleteFailed:
    'Your subscription could not be cancelled with the payment service, so nothing was deleted. Please try again in a minute.',
  providerUnavailable: 'The payment service could not be reached. Nothing was charged; please try again in a minute.',
} as const;

export const AUDIO_KINDS = ['selfeggio', 'bonus', 'custom'] as const;
export type AudioKind = (typeof AUDIO_KINDS)[number];

/** The three audio libraries: what people and staff call each, and the call that lists it. */
export const AUDIO_LIBRARIES: Record<AudioKind, { title: string; path: string }> = {
  selfeggio: { title: 'Solfeggio', path: API.selfeggio },
  bonus: { title: 'Bonus', path: API.bonusAudio },
  custom: { title: 'Custom', path: API.customAudio },
};

/** One's own music (Pro; docs/product/plans.md): what it may hold. */
export const OWN_MUSIC = {
  maxTracks: 50,
  maxBytes: 500 * 1024 * 1024,
  /** One file's largest size. */
  maxFileBytes: 100 * 1024 * 1024,
  nameMax: 80,
} as const;

/**
 * Direction controls (U+202A–U+202E, U+2066–U+2069) and control characters in a file's name: nobody typed them, so
 * the name taken from it drops them rather than being refused as typed text is (decision 063).
 */
const NOT_TYPED_IN_FILE_NAME = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu;

/** The name an own track takes from its file when none is typed: the file's name less its extension. */
export const trackNameOfFile = (fileName: string) =>
  fileName.replace(/\.[^.]*$/, '').replace(NOT_TYPED_IN_FILE_NAME, '');

/**
 * Recordings of one's own voice for the spoken affirmations (Pro; docs/product/plans.md): one per
 * message text, each a sentence long, as 16-bit PCM WAV with one channel.
 */
/** The spoken affirmations' voice that speaks the person's own recordings (a saved sound keeps it so). */
export const OWN_VOICE = 'own';

export const VOICE_RECORDINGS = {
  maxRecordings: 100,
  maxSeconds: 20,
  /** Shorter than this is a click, not a sentence. */
  minMilliseconds: 300,
  sampleRates: { min: 8_000, max: 48_000 },
  /** 20 s at 48 kHz and the header, with room for a few small chunks beside the samples. */
  maxFileBytes: 2 * 1024 * 1024,
} as const;

export const EXPORT_FORMATS = ['txt', 'csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A saved sound's limits: a layer's level in dB of full scale (−60 is silence, 0 full scale). */
export const MIX_GAIN_DB = { min: -60, max: 0 } as const;

/** The goals a person can pick (their ids are what the API carries; labels are what people see). */
export const GUIDANCE_GOALS = [
  { id: 'sleep', label: 'Sleep' },
  { id: 'calm', label: 'Calm' },
  { id: 'focus', label: 'Focus' },
  { id: 'confidence', label: 'Confidence' },
  { id: 'mindfulness', label: 'Mindfulness' },
  { id: 'abundance', label: 'Abundance' },
  { id: 'gratitude', label: 'Gratitude' },
  { id: 'health-habits', label: 'Healthy habits' },
  { id: 'self-love', label: 'Self-love' },
  { id: 'relationships', label: 'Relationships' },
  { id: 'creativity', label: 'Creativity' },
  { id: 'courage', label: 'Courage' },
] as const;
export type GoalId = (typeof GUIDANCE_GOALS)[number]['id'];
export const goalLabel = (id: GoalId) => GUIDANCE_GOALS.find((goal) => goal.id === id)?.label ?? id;

/** The session lengths one can prefer, in minutes. */
export const SESSION_MINUTES = [5, 10, 20, 30, 60] as const;
export type SessionMinutes = (typeof SESSION_MINUTES)[number];
export const GOAL_FREE_TEXT_MAX = 200;

/** Where a playlist's message came from; "shared" ones came by a share link and name no row. */
export const PLAYLIST_SOURCES = ['library', 'own', 'shared'] as const;
export type PlaylistSource = (typeof PLAYLIST_SOURCES)[number];
/** The longest playlist the player keeps (the server refuses a longer one). */
/** The longest name of an own category and the longest own message, in characters (code points). */
export const OWN_CATEGORY_NAME_MAX = 80;
export const OWN_MESSAGE_TEXT_MAX = 200;
/**
 * The 409 of an edit whose `previous_*` text is not what the thing reads any more: a message, one's own or the
 * library's, or a library category's or audio item's name or description (decisions 062, 083 and 084); and of a
 * program's replace whose `updated_at` is not the program's any more (decision 091).
 */
export const MESSAGE_CHANGED_CODE = 'changed_meanwhile';
/** Its words, naming what was changed: "This name was changed meanwhile, …". */
export const changedMeanwhileMessage = (what: 'message' | 'name' | 'description' | 'program') =>
  `This ${what} was changed meanwhile, perhaps in another tab or on another device, so yours was not saved.`;
export const MESSAGE_CHANGED_MESSAGE = changedMeanwhileMessage('message');
/**
 * The 409 of a new order of a list, the library's or one's own, that does not name every row of it as it is now: a row
 * was added or removed since the list was read, most often in another tab (decision 084).
 */
export const LIST_CHANGED_CODE = 'list_changed';
export const LIST_CHANGED_MESSAGE =
  'This list changed meanwhile, perhaps in another tab or on another device, so the new order was not saved. Give every id of the list as it is now exactly once.';

export const PLAYLIST_MAX = 1_000;

/**
 * The `code` of the `409` that refuses a session begun before the person last deleted their history:
 * nothing is added, and sending it again changes nothing (docs/decisions/054-a-deleted-history-stays-deleted.md).
 */
export const HISTORY_DELETED_CODE = 'history_deleted';

/**
 * A stretch heard for less than this many seconds is a try: the last sessions of Your practice list it only when
 * nothing longer played in its sitting, and the page says how many it left out so
 * (docs/decisions/038-a-session-shown-is-a-sitting.md).
 */
export const HISTORY_TRY_SECONDS = 30;

/**
 * Whether a record of a session replaces the one kept under the same `record_key`: the browser sends what
 * played so far while the session goes on, then its end (docs/decisions/090-a-session-is-recorded-as-it-goes.md),
 * and a late copy of an earlier one must not shorten what is kept. It replaces when it is longer, or as long
 * and played to its end where the one kept was not; the server keeps its entry so, the browser its records.
 */
export const replacesRecord = (
  record: { seconds: number; finished: boolean },
  kept: { seconds: number; finished: boolean },
) => record.seconds > kept.seconds || (record.seconds === kept.seconds && record.finished && !kept.finished);
