import type { Mailer } from '../mail/mailer';
import type { AppMetrics, MailKind } from './app-metrics';

/**
 * The mailer, counting each mail sent and each that failed. A new Mailer method must be
 * added here with its kind (the object below is typed as a Mailer, so the build says so).
 */
export function instrumentMailer(mailer: Mailer, metrics: AppMetrics): Mailer {
  const counted =
    <A extends unknown[]>(kind: MailKind, send: (...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      try {
        await send(...args);
      } catch (error) {
        metrics.mailFailed(kind);
        throw error;
      }
      metrics.mailSent(kind);
    };
  return {
    sendVerificationCode: counted('verification_code', (mail) => mailer.sendVerificationCode(mail)),
    sendInvite: counted('invite', (mail) => mailer.sendInvite(mail)),
    sendSignUpAttempt: counted('sign_up_attempt', (mail) => mailer.sendSignUpAttempt(mail)),
    sendSignInAlert: counted('sign_in_alert', (mail) => mailer.sendSignInAlert(mail)),
    close: () => mailer.close(),
  };
}
