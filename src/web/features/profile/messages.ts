import { PROFILE_IMAGE } from '@shared/constants';

// The profile screen's own texts where the spec is silent (docs/product/errors-and-limits.md#screen-messages).

/** The largest picture one may pick; it is made 150 px in the browser before it is sent. */
export const MAX_PICKED_IMAGE_BYTES = 20 * 1024 * 1024;
const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export const PICKABLE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif'];

export const PROFILE_MESSAGES = {
  firstNameMissing: 'Your first name is missing',
  lastNameMissing: 'Your last name is missing',
  nameTooLong: 'At most 150 characters, please.',
  notAnImage: 'That file is not an image we can use. Choose a PNG, JPEG, WebP, GIF or AVIF picture.',
  unreadableImage: 'That picture could not be read. Choose another PNG, JPEG, WebP, GIF or AVIF picture.',
  imageTooLarge: `That picture is larger than ${megabytes(MAX_PICKED_IMAGE_BYTES)}. Choose a smaller one.`,
  uploadTooLarge: `The picture is larger than the ${megabytes(PROFILE_IMAGE.maxUploadBytes)} the server takes.`,
  imageHint: `PNG, JPEG, WebP, GIF or AVIF, up to ${megabytes(MAX_PICKED_IMAGE_BYTES)}; shown 150 px wide.`,
  imageRemoved: 'Your profile image was removed.',
  passwordChanged: 'Your password was changed. Your other devices were signed out.',
  emailChangeSent: (email: string) => `We sent a confirmation link to ${email}. Your address changes when you open it.`,
  exportFailed: 'Your data could not be downloaded. Please try again.',
  accountDeleted: 'Your account and all its data were deleted.',
  currentPasswordMissing: 'Your current password is missing',
  newPasswordMissing: 'Your new password is missing',
  passwordMismatch: 'The password does not match',
  emailMissing: 'Your e-mail is missing',
} as const;
