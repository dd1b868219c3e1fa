// Product constants (docs/product/errors-and-limits.md#business-constants). Both the server and the browser read these.

export const PRODUCT_NAME = 'Innerwave';

export const SESSION = {
  refreshIntervalMs: 30_000,
  storageKeys: {
    access: 'user.access',
    refresh: 'user.refresh',
    user: 'user.user',
    id: 'user.id',
    email: 'user.email',
  },
} as const;

/** Toasts that the spec sets to close quickly; the toast library's default is 5000 ms. */
export const SHORT_TOAST_MS = 1000;

export const PLAYER = {
  flashSpeed: { default: 100, min: 50, step: 10 },
  displayInterval: { default: 2000, min: 1000, step: 500 },
  messageColor: { default: '#00DC82' },
  fontSize: { default: 20, min: 10, max: 70, step: 2 },
} as const;

export const HOME = {
  heroRotationMs: 5000,
  heroImageCount: 4,
  modalClearDelayMs: 300,
  meditatingClaim: '1,200+ people are meditating',
} as const;

export const PROFILE_IMAGE = {
  maxSidePx: 150,
  jpegQuality: 0.8,
  /** Server-side upload limit for a profile image. */
  maxUploadBytes: 5 * 1024 * 1024,
} as const;

/** Fills in progress where the browser reports none: +5 every 200 ms up to 90. */
export const SAVE_PROGRESS = { step: 5, everyMs: 200, max: 90 } as const;

export const SUBSCRIPTION_PLANS = ['basic', 'intermediate', 'pro'] as const;
export type SubscriptionPlan = (typeof SUBSCRIPTION_PLANS)[number];

export const PRICING_PLANS: ReadonlyArray<{
  plan: SubscriptionPlan;
  name: string;
  pricePerMonth: number;
  features: readonly string[];
}> = [
  {
    plan: 'basic',
    name: 'Basic',
    pricePerMonth: 0,
    features: ['Complete list of messages', 'Add your own messages', 'Store them in the cloud'],
  },
  {
    plan: 'intermediate',
    name: 'Intermediate',
    pricePerMonth: 36,
    features: ['Customized sound effects', 'Unlimited themes', '24/7 technical support', 'Save and share subliminals'],
  },
  {
    plan: 'pro',
    name: 'Pro',
    pricePerMonth: 56,
    features: [
      'Streaming subliminal sounds',
      'AI subliminal recommendation',
      'Exporting and sharing messages',
      'Adding more music and sound',
    ],
  },
];

export const BINAURAL = {
  clampHz: { min: 0.1, max: 1000 },
  inputHz: { min: 0, max: 1000 },
  volume: { min: 0, max: 1, step: 0.01 },
  defaults: { leftHz: 200, rightHz: 205, volume: 0.5 },
  /** Left is the carrier; right is the carrier plus a beat inside the band (docs/product/content.md#presets). */
  carrierHz: 200,
} as const;

export interface BinauralBand {
  name: 'Delta' | 'Theta' | 'Alpha' | 'Beta' | 'Gamma';
  bandHz: readonly [number, number];
  beatHz: number;
  description: string;
}

export const BINAURAL_BANDS: readonly BinauralBand[] = [
  { name: 'Delta', bandHz: [0.5, 4], beatHz: 2, description: 'The slowest band, linked with deep, dreamless sleep.' },
  { name: 'Theta', bandHz: [4, 8], beatHz: 6, description: 'Drowsy, dreamy states at the edge of sleep.' },
  { name: 'Alpha', bandHz: [8, 13], beatHz: 10, description: 'Relaxed, calm wakefulness, eyes closed.' },
  { name: 'Beta', bandHz: [13, 30], beatHz: 20, description: 'Alert, focused, everyday thinking.' },
  { name: 'Gamma', bandHz: [30, 150], beatHz: 40, description: 'Fast rhythms seen during concentrated attention.' },
];

export interface SolfeggioFrequency {
  hz: number;
  name: string;
  description: string;
}

/** The ten frequencies of the home page, from 963 Hz down to 174 Hz. */
export const SOLFEGGIO_FREQUENCIES: readonly SolfeggioFrequency[] = [
  {
    hz: 963,
    name: 'Oneness',
    description: 'The highest tone of the set, often chosen for quiet, spacious meditations and a sense of stillness.',
  },
  {
    hz: 852,
    name: 'Intuition',
    description: 'A bright, clear tone many people use when they want to turn attention inward and listen.',
  },
  {
    hz: 741,
    name: 'Expression',
    description: 'A crisp tone for clearing the mind before writing, speaking or creative work.',
  },
  {
    hz: 639,
    name: 'Connection',
    description: 'A warm tone traditionally associated with relationships, empathy and harmony with others.',
  },
  {
    hz: 528,
    name: 'Transformation',
    description: 'The best-known solfeggio tone, used for hopeful, uplifting sessions and fresh starts.',
  },
  {
    hz: 432,
    name: 'Natural tuning',
    description: 'A gentle tone favoured by musicians for its soft, rounded character; good for unwinding.',
  },
  {
    hz: 417,
    name: 'Change',
    description: 'A steady tone for sessions about letting go of old habits and making room for new ones.',
  },
  {
    hz: 396,
    name: 'Release',
    description: 'A grounded tone used in meditations on releasing worry, guilt and tension.',
  },
  {
    hz: 285,
    name: 'Restoration',
    description: 'A low, soothing tone for slow, restful sessions after a demanding day.',
  },
  {
    hz: 174,
    name: 'Foundation',
    description: 'The deepest tone of the set, calm and heavy, often used for body-scan and grounding practice.',
  },
];

export const EQUALIZER_SAMPLE_HZ = [963, 528, 396] as const;

/** Where people reach us; support answers within SUPPORT_RESPONSE_HOURS business hours (the terms say so). */
export const CONTACT = {
  supportEmail: 'support@innerwave.app',
  privacyEmail: 'privacy@innerwave.app',
  supportResponseBusinessHours: 48,
} as const;
