import type { SignUpAttemptMail } from './mailer';

export const SIGN_UP_ATTEMPT_SUBJECT = 'Someone tried to sign up to Lockit with your address';

/**
 * To the owner of an address someone tried to sign up with. Sign-up answers such a request
 * as it answers a new one (nothing tells the requester the address is taken), so this mail
 * is the only trace: it holds no secret and no link, and says nothing was changed.
 */
export function signUpAttemptMailContent(mail: SignUpAttemptMail) {
  const when = new Date(mail.at).toUTCString();
  const text = [
    `Hello ${mail.username},`,
    '',
    `Someone tried to sign up to Lockit with your address on ${when}.`,
    'Your address already belongs to your account, so no new account was made and nothing',
    'of yours was changed. If it was you, sign in with your existing account instead.',
    'If it was not you, you need not do anything.',
  ].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(mail.username)},</p>`,
    `<p>Someone tried to sign up to Lockit with your address on ${escapeHtml(when)}.</p>`,
    '<p>Your address already belongs to your account, so no new account was made and nothing of yours was changed. If it was you, sign in with your existing account instead.</p>',
    '<p>If it was not you, you need not do anything.</p>',
  ].join('\n');
  return { subject: SIGN_UP_ATTEMPT_SUBJECT, text, html };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
