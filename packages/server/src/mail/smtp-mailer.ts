import nodemailer from 'nodemailer';
import type { Mailer } from './mailer';
import { verificationMailContent } from './verification-mail-content';

/** Sends through the SMTP server of SMTP_URL (smtp:// or smtps://). */
export function createSmtpMailer(smtpUrl: string, from: string, codeLifetimeMinutes: number): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async sendVerificationCode(mail) {
      await transport.sendMail({ from, to: mail.to, ...verificationMailContent(mail, codeLifetimeMinutes) });
    },
    async close() {
      transport.close();
    },
  };
}
