import type { FastifyBaseLogger } from 'fastify';
import type { Mailer } from './mailer';

/**
 * Development mail: without SMTP_URL the code is written to the server log (info level),
 * marked as dev mail, so a fresh clone works with no mail server. Not for production.
 */
export function createLogMailer(log: FastifyBaseLogger): Mailer {
  return {
    async sendVerificationCode({ to, username, code }) {
      log.info(
        { devMail: true, to, username, code },
        `DEV MAIL (SMTP_URL is not set): verification code for ${username} is ${code}`,
      );
    },
    async close() {},
  };
}
