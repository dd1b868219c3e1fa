import { SUPPORT, type SubscriptionPlan } from '@shared/constants';
import { PLAN_NAMES } from '@shared/plans';

// Constants of the web app's screens (the server never reads them).

/** Toasts that close quickly (the toast library's default is 4000 ms). */
export const SHORT_TOAST_MS = 1000;

/** Fills in progress where the browser reports none: +5 every 200 ms up to 90. */
export const SAVE_PROGRESS = { step: 5, everyMs: 200, max: 90 } as const;

export const PRICING_PLANS: ReadonlyArray<{
  plan: SubscriptionPlan;
  name: string;
  pricePerMonth: number;
  features: readonly string[];
}> = [
  {
    plan: 'basic',
    name: PLAN_NAMES.basic,
    pricePerMonth: 0,
    features: ['Complete list of messages', 'Add your own messages', 'Store them in the cloud'],
  },
  {
    plan: 'intermediate',
    name: PLAN_NAMES.intermediate,
    pricePerMonth: 36,
    features: ['Customized sound effects', 'Unlimited themes', '24/7 technical support', 'Save and share subliminals'],
  },
  {
    plan: 'pro',
    name: PLAN_NAMES.pro,
    pricePerMonth: 56,
    features: [
      'Streaming subliminal sounds',
      'AI subliminal recommendation',
      'Exporting and sharing messages',
      'Adding more music and sound',
    ],
  },
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
  supportEmail: SUPPORT.defaultEmail,
  privacyEmail: 'privacy@innerwave.app',
  supportResponseBusinessHours: SUPPORT.responseBusinessHours,
} as const;
