import nodemailer from 'nodemailer';
import type { Mailer } from './mailer';
import { verificationMailContent } from './verification-mail-content';
import { inviteMailContent } from './invite-mail-content';
import { signUpAttemptMailContent } from './sign-up-attempt-mail-content';
import { signInAlertMailContent } from './sign-in-alert-mail-content';

const SMTP_CONNECTION_TIMEOUT_MS = 5_000;
const SMTP_GREETING_TIMEOUT_MS = 5_000;
/** Inactivity on an open connection (a server that stops answering mid-exchange). */
const SMTP_SOCKET_TIMEOUT_MS = 10_000;

/** Sends through the SMTP server of SMTP_URL (smtp:// or smtps://). */
export function createSmtpMailer(smtpUrl: string, from: string, codeLifetimeMinutes: number): Mailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    // Nodemailer waits 2 min for a connection and 30 s for the greeting by default: a mail
    // server that accepts and never speaks held shutdown for 31 s. These bound one send to
    // well under the shutdown grace (main.ts), and the background drain bounds the rest.
    connectionTimeout: SMTP_CONNECTION_TIMEOUT_MS,
    greetingTimeout: SMTP_GREETING_TIMEOUT_MS,
    socketTimeout: SMTP_SOCKET_TIMEOUT_MS,
  });
  return {
    async sendVerificationCode(mail) {
      await transport.sendMail({ from, to: mail.to, ...verificationMailContent(mail, codeLifetimeMinutes) });
    },
    async sendInvite(mail) {
      await transport.sendMail({ from, to: mail.to, ...inviteMailContent(mail) });
    },
    async sendSignUpAttempt(mail) {
      await transport.sendMail({ from, to: mail.to, ...signUpAttemptMailContent(mail) });
    },
    async sendSignInAlert(mail) {
      await transport.sendMail({ from, to: mail.to, ...signInAlertMailContent(mail) });
    },
    async close() {
      transport.close();
    },
  };
}
