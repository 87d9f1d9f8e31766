import type { VerificationMail } from './mailer';

export const VERIFICATION_SUBJECT = 'Your Lockit verification code';

/** The mail text; the code is the only secret in it and expires in `lifetimeMinutes`. */
export function verificationMailContent(mail: VerificationMail, lifetimeMinutes: number) {
  const text = [
    `Hello ${mail.username},`,
    '',
    `Your Lockit verification code is: ${mail.code}`,
    '',
    `It expires in ${lifetimeMinutes} minutes and works once.`,
    'If you did not sign up for Lockit, ignore this mail: no account is active without the code.',
  ].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(mail.username)},</p>`,
    `<p>Your Lockit verification code is:</p>`,
    `<p style="font-size:24px;font-weight:bold;letter-spacing:4px;font-family:monospace">${escapeHtml(mail.code)}</p>`,
    `<p>It expires in ${lifetimeMinutes} minutes and works once.</p>`,
    `<p>If you did not sign up for Lockit, ignore this mail: no account is active without the code.</p>`,
  ].join('\n');
  return { subject: VERIFICATION_SUBJECT, text, html };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
