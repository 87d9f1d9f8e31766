export interface VerificationMail {
  to: string;
  username: string;
  code: string;
}

/** Sends the mails Lockit needs. Implementations must never log a code except the dev one. */
export interface Mailer {
  sendVerificationCode(mail: VerificationMail): Promise<void>;
  close(): Promise<void>;
}
