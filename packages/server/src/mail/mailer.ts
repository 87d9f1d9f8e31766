export interface VerificationMail {
  to: string;
  username: string;
  code: string;
}

export interface InviteMail {
  to: string;
  url: string;
  expiresAt: number;
}

/** To the owner of an address someone tried to sign up with again; `at` is when. */
export interface SignUpAttemptMail {
  to: string;
  username: string;
  at: number;
}

/**
 * A sign-in notice to the account's owner: `newSignIn` after a sign-in from a
 * browser that never signed in to the account; `secondFactorFailed` after a correct master
 * password whose second step then failed. Holds where and when, never a secret.
 */
export interface SignInAlertMail {
  kind: 'newSignIn' | 'secondFactorFailed';
  to: string;
  username: string;
  /** "Chrome 120", or null when the browser did not say. */
  browser: string | null;
  system: string | null;
  address: string | null;
  at: number;
}

/** Sends the mails Lockit needs. Implementations must never log a code except the dev one. */
export interface Mailer {
  sendVerificationCode(mail: VerificationMail): Promise<void>;
  /** An invitation link (decision 0044); the link holds the token, so it is never logged. */
  sendInvite(mail: InviteMail): Promise<void>;
  /** Someone tried to sign up with an address that has an account: no secret, nothing changed. */
  sendSignUpAttempt(mail: SignUpAttemptMail): Promise<void>;
  /** A sign-in from a new browser, or a failed second step after a correct password. */
  sendSignInAlert(mail: SignInAlertMail): Promise<void>;
  close(): Promise<void>;
}
