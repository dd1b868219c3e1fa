// Product constants that both the server and the browser read
// (docs/product/errors-and-limits.md#business-constants).

export const PRODUCT_NAME = 'Innerwave';

export const PLAYER = {
  flashSpeed: { default: 100, min: 50, max: 5_000, step: 10 },
  displayInterval: { default: 2000, min: 1000, max: 600_000, step: 500 },
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
  /** A picture may not claim a larger canvas (a small file can decode to gigabytes), in the browser or the server. */
  maxInputPixels: 40_000_000,
} as const;

/**
 * The support form (docs/product/accounts.md#support): the address the pages show, built in, where requests are
 * mailed unless SUPPORT_EMAIL says otherwise (the server warns at start when it does), and the answer time the
 * terms promise.
 */
export const SUPPORT = {
  defaultEmail: 'support@innerwave.app',
  responseBusinessHours: 48,
  /** Requests one person may send per hour. */
  requestsPerHour: 5,
} as const;

export const SUBSCRIPTION_PLANS = ['basic', 'intermediate', 'pro'] as const;
export type SubscriptionPlan = (typeof SUBSCRIPTION_PLANS)[number];

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
