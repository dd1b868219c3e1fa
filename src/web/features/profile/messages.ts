import { formatBytes } from '@shared/bytes';
import { PROFILE_IMAGE } from '@shared/constants';
import { isolated } from '@shared/contract/plain';
import { waitInWords } from '@shared/numbers';
import { PASSWORD_MISSING } from '@web/components/ui/password-field';
import { withUnit } from '@shared/numbers';

// The profile screen's own texts where the spec is silent (docs/product/errors-and-limits.md#screen-messages).

/** The largest picture one may pick; it is made 150 px in the browser before it is sent. */
export const MAX_PICKED_IMAGE_BYTES = 20 * 1024 * 1024;

export const PICKABLE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif'];

export const PROFILE_MESSAGES = {
  firstNameMissing: 'Your first name is missing',
  lastNameMissing: 'Your last name is missing',
  nameTooLong: 'At most 150 characters, please.',
  notAnImage: 'That file is not an image we can use. Choose a PNG, JPEG, WebP, GIF or AVIF picture.',
  unreadableImage: 'That picture could not be read. Choose another PNG, JPEG, WebP, GIF or AVIF picture.',
  imageTooLarge: `That picture is larger than ${formatBytes(MAX_PICKED_IMAGE_BYTES)}. Choose a smaller one.`,
  imageTooManyPixels: `That picture is larger than ${PROFILE_IMAGE.maxInputPixels / 1_000_000} megapixels. Choose a smaller one.`,
  uploadTooLarge: `The picture is larger than the ${formatBytes(PROFILE_IMAGE.maxUploadBytes)} the server takes.`,
  imageHint: `PNG, JPEG, WebP, GIF or AVIF, up to ${formatBytes(MAX_PICKED_IMAGE_BYTES)}; shown ${withUnit(150, 'px')} wide.`,
  /** The edit dialog's Save, as the app's other saves say theirs: the dialog closing alone says nothing. */
  saved: 'Your profile is saved.',
  imageRemoved: 'Your profile image was removed.',
  /** A 429 of a save with a picture (30 pictures an hour a person); names alone still save. */
  imageThrottled: (minutes: number) =>
    `Too many new pictures in the last hour. ${
      minutes > 0 ? `You can send another in ${waitInWords(minutes * 60_000)}` : 'Please wait a while and try again'
    }; your name can be saved without one.`,
  /** `ended`: the other sessions the change ended, null when the server did not say. */
  passwordChanged: (ended: number | null) =>
    ended === null
      ? 'Your password was changed.'
      : ended === 0
        ? 'Your password was changed. No other device was signed in.'
        : `Your password was changed. Signed out ${ended === 1 ? '1 other session' : `${ended} other sessions`}.`,
  /** Signing out everywhere else (docs/product/screens.md#profile). */
  sessionsNone: 'You are signed in only here.',
  sessionsOthers: (count: number, latest: string) =>
    count === 1
      ? `Also signed in on 1 other device or browser, since ${latest}.`
      : `Also signed in on ${count} other devices or browsers; the latest since ${latest}.`,
  sessionsUnknown: 'Sign out every other device and browser signed in to your account.',
  signOutOthersIntro:
    'Every other device and browser signed in to your account is signed out at once: a lost phone, a shared computer. You stay signed in here.',
  signOutOthersHint: 'If someone else may know your password, change it too.',
  signedOutOthers: (count: number) =>
    count === 0
      ? 'No other device was signed in. You are still signed in here.'
      : `Signed out ${count === 1 ? '1 other session' : `${count} other sessions`}. You are still signed in here.`,
  /** Brief: the box that shows the change waiting says where the link went and what it does (emailChangePendingNote). */
  emailChangeSent: 'Confirmation link sent.',
  /** The change waiting for its link, under the address (docs/product/screens.md#profile). */
  emailChangePendingNote: 'Your address changes when the link is opened; until then you log in with this one.',
  emailChangeResent: (email: string) => `We sent a new confirmation link to ${isolated(email)}.`,
  emailChangeCancelled: (email: string) => `The change to ${isolated(email)} was cancelled; its link no longer works.`,
  emailChangeTaken: (email: string) =>
    `${isolated(email)} belongs to another account now. Cancel this change, or ask for another address.`,
  exportFailed: 'Your data could not be downloaded. Please try again.',
  accountDeleted: 'Your account and all its data were deleted.',
  /** The delete-account dialog: what goes, in a list read at a glance. */
  deleteIntro: 'Everything in your account is deleted for good, and you are signed out:',
  deleteLosses: [
    'Your profile, picture, goals and settings',
    'Your own messages, music and voice recordings',
    'Your saved subliminals and their share links',
    'Your playlist, practice history and support requests',
  ],
  deleteSubscription: 'Your paid subscription is cancelled at once; nothing more is charged.',
  deleteFinal: 'This cannot be undone.',
  currentPasswordMissing: 'Your current password is missing',
  newPasswordMissing: PASSWORD_MISSING.newPassword,
  confirmNewPasswordMissing: PASSWORD_MISSING.confirmNewPassword,
  passwordMismatch: 'The password does not match',
  emailMissing: 'Your e-mail is missing',
} as const;

/** The Plan & billing panel's texts (docs/product/screens.md#plan--billing). */
export const BILLING_TEXTS = {
  free: 'Basic is free.',
  renewsAt: (date: string, price: number) => `Renews on ${date} at $${price} a month.`,
  cancelsAt: (plan: string, date: string) =>
    `Cancelled: you keep ${plan} until ${date}, then your account moves to Basic. Nothing is deleted.`,
  setByTeam: 'Set by our team; nothing is billed for it.',
  status: (status: string) => `Subscription status at Stripe: ${status.replace(/_/g, ' ')}.`,
  /** A subscription whose first payment Stripe has not yet taken (it gives it 23 hours, then ends it). */
  incomplete:
    'Your first payment has not gone through yet: your new plan starts as soon as it does. If it has not within a day, nothing is charged and you can try again.',
  portal: 'Change your plan, update your card, see invoices or cancel, in Stripe’s billing portal.',
  /** Cancelled at the period's end: nothing left to cancel, the plan to renew (the button's "Renew or change plan"). */
  portalCancelled: 'Renew or change your plan, update your card or see invoices, in Stripe’s billing portal.',
  /** With no subscription left to change or cancel: what the portal still holds. */
  portalPast: 'Your past invoices and payment details are in Stripe’s billing portal.',
  checkoutTerms:
    'Payment is taken by Stripe. The plan renews every month until you cancel; a cancelled plan stays until the end of the month paid for.',
  askTeam: (email: string) =>
    `Our team sets plans by hand here: ask for the plan you want below, or write to ${email}.`,
  pastDue: (plan: string) =>
    `Your last payment did not go through. You keep ${plan} while Stripe tries again; update your payment details to keep it.`,
  confirming:
    'Thank you! We are waiting for Stripe to confirm your payment; your new plan shows here in a few seconds.',
  late: (email: string) =>
    `Stripe has not confirmed the payment to us yet. Your plan changes as soon as it does; check again in a minute, or write to ${email} if it does not.`,
  confirmed: (plan: string) => `You are on ${plan} now. Thank you!`,
  toCheckout: (plan: string) => `Taking you to Stripe Checkout for ${plan}…`,
  checkoutLeft: 'You left checkout before paying. Nothing was charged and your plan is unchanged.',
  alreadyOn: (plan: string) => `You are on ${plan} already.`,
  /** A plan picked above one's live subscription (from a lock): it changes in the portal, never through a second Checkout. */
  changeInPortal: (plan: string, button: string) =>
    `Your subscription moves to ${plan} in Stripe’s billing portal: choose “${button}”, then ${plan}.`,
} as const;
