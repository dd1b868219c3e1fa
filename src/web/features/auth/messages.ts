import { isolated, TERMS_NOT_ACCEPTED } from '@shared/contract/plain';
import { PASSWORD_MISSING } from '@web/components/ui/password-field';
import { OFFLINE_MESSAGE, THROTTLED_MESSAGE } from '@web/lib/api-client';

// Every text of the account screens (docs/product/errors-and-limits.md#screen-messages).
export const AUTH_MESSAGES = {
  emailMissing: 'Your e-mail is missing',
  emailInvalid: 'Enter a valid email address.',
  passwordMissing: 'Your password is missing',
  passwordMismatch: 'The password does not match',
  // Ours, where the spec has a text only for the first password (docs/product/errors-and-limits.md#screen-messages):
  confirmPasswordMissing: PASSWORD_MISSING.confirmPassword,
  newPasswordMissing: PASSWORD_MISSING.newPassword,
  confirmNewPasswordMissing: PASSWORD_MISSING.confirmNewPassword,
  resetMismatch: 'Password mismatch!',
  signupSucceeded: 'Check your email inbox to activate your account!',
  signupFailed: (status: number) => `Signup failed with status code: ${status}`,
  signupError: (message: string) => `Error during signup: ${message}`,
  loginFailed: 'The email or password is incorrect!',
  userFetchFailed: 'We had some trouble fetching your personal data!',
  logoutSucceeded: 'Logout successful',
  logoutFailed: 'We are having trouble terminating your session. Please try again!',
  activationSucceeded: 'Account activated successfully',
  activationFailed: 'We had trouble verifying your email address!',
  resetRequested: 'Check your email to reset your password.',
  resetRequestFailed: 'An error occurred, please try again!',
  resetSucceeded: 'Your password was reset, redirecting...',
  resetFailed: 'Password reset failed, please try again!',
  /** Too many attempts for this address or account (a 429); the profile's account dialogs say it too. */
  throttled: THROTTLED_MESSAGE,
  // Ours too, where the spec is silent (docs/product/errors-and-limits.md#screen-messages):
  offline: OFFLINE_MESSAGE,
  accountInactive: 'Your account is not activated yet. Open the link we e-mailed you, or have a new one sent.',
  resendSent:
    'If the account still waits for activation, a new link is on its way; if it is gone, an e-mail says how to sign up again. Check your inbox.',
  resendFailed: 'We could not send a new link. Please try again.',
  alreadyActive: 'Your account is already active. Please log in.',
  termsMissing: TERMS_NOT_ACCEPTED,
  /** Signed in, but the browser would not store the session (site data blocked, full): it lasts as long as the tab. */
  sessionNotKept:
    'You are signed in on this tab only: your browser is not keeping this site’s data, so closing or reloading the tab signs you out.',
  emailChanged: 'Your e-mail address was changed. Use it the next time you log in.',
  /** The link of another account than the one signed in here (docs/decisions/145-…): not "your", and which address. */
  emailChangedForAnother: (address: string | undefined) =>
    `The e-mail address was changed${address ? ` to ${isolated(address)}` : ''} for the account that asked for it. You are signed in with another account, which keeps its address.`,
  // Not "was not changed": a link opened a second time is refused, though its first opening changed it.
  emailLinkDidNotChange: 'This link did not change your e-mail address.',
} as const;
