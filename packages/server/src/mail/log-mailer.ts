import type { FastifyBaseLogger } from 'fastify';
import type { Mailer } from './mailer';

/**
 * The fields of a development mail's log line. They stay top-level in JSON logs: test-support
 * and the benches read codes from `"devMail":true` lines. On a terminal the pretty log draws
 * them as a box (src/http/pretty-log.ts).
 */
export interface DevMailRecord {
  devMail: true;
  to: string;
  username: string;
  code: string;
}

export function isDevMailRecord(record: Record<string, unknown>): record is Record<string, unknown> & DevMailRecord {
  return (
    record.devMail === true &&
    typeof record.to === 'string' &&
    typeof record.username === 'string' &&
    typeof record.code === 'string'
  );
}

/**
 * Development mail: without SMTP_URL the code is written to the server log (info level),
 * marked as dev mail, so a fresh clone works with no mail server. Not for production.
 */
export function createLogMailer(log: FastifyBaseLogger): Mailer {
  return {
    async sendVerificationCode({ to, username, code }) {
      const record: DevMailRecord = { devMail: true, to, username, code };
      log.info(record, `DEV MAIL (SMTP_URL is not set): verification code for ${username} is ${code}`);
    },
    // The link is shown to whoever made the invitation; it is a secret, so not logged.
    async sendInvite() {
      log.info('Invitation not mailed (SMTP_URL is not set): its link was shown to copy');
    },
    // Names no address: the log must not tell who was probed.
    async sendSignUpAttempt() {
      log.info('Sign-up attempt notice not mailed (SMTP_URL is not set)');
    },
    // Names no address or account: the log is no record of who signed in from where.
    async sendSignInAlert({ kind }) {
      log.info(`Sign-in notice (${kind}) not mailed (SMTP_URL is not set)`);
    },
    async close() {},
  };
}
