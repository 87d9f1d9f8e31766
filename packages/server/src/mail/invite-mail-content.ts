import type { InviteMail } from './mailer';

export const INVITE_SUBJECT = 'You are invited to Lockit';

/** The invitation mail; the link is its only secret and works once, until `expiresAt`. */
export function inviteMailContent(mail: InviteMail) {
  const until = new Date(mail.expiresAt).toUTCString();
  const text = [
    'Hello,',
    '',
    'You are invited to create an account on this Lockit server, a password manager that',
    'encrypts your passwords before they leave your browser. Open this link to sign up:',
    '',
    mail.url,
    '',
    `It works once, until ${until}.`,
    'If you did not expect this invitation, ignore this mail.',
  ].join('\n');
  const html = [
    '<p>Hello,</p>',
    '<p>You are invited to create an account on this Lockit server, a password manager that encrypts your passwords before they leave your browser.</p>',
    `<p><a href="${escapeHtml(mail.url)}">Accept the invitation and sign up</a></p>`,
    `<p>It works once, until ${escapeHtml(until)}.</p>`,
    '<p>If you did not expect this invitation, ignore this mail.</p>',
  ].join('\n');
  return { subject: INVITE_SUBJECT, text, html };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
