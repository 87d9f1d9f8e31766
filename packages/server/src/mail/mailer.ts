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

/** Sends the mails Lockit needs. Implementations must never log a code except the dev one. */
export interface Mailer {
  sendVerificationCode(mail: VerificationMail): Promise<void>;
  /** An invitation link (decision 0044); the link holds the token, so it is never logged. */
  sendInvite(mail: InviteMail): Promise<void>;
  close(): Promise<void>;
}
