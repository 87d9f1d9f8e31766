import type { SignInAlertMail } from './mailer';

export const NEW_SIGN_IN_SUBJECT = 'New sign-in to your Lockit account';
export const SECOND_FACTOR_FAILED_SUBJECT = 'Your master password was used, but the second step failed';

/**
 * The two sign-in notices. They hold no secret and no link (a link in such a mail is what a
 * phishing copy would imitate): the browser and system as the request's User-Agent named
 * them, when they are names the parser knows (a fixed list: a client cannot write its own
 * sentence into the mail), the address, the time, and what to do if it was not the owner.
 */
export function signInAlertMailContent(mail: SignInAlertMail) {
  const when = new Date(mail.at).toUTCString();
  const details = [
    // Only names from describeUserAgent's fixed lists reach here; anything else is unknown.
    `Browser: ${mail.browser ?? 'an unknown browser'}`,
    `System: ${mail.system ?? 'an unknown system'}`,
    `Address: ${mail.address ?? 'unknown'}`,
    `Time: ${when}`,
  ];
  const lead =
    mail.kind === 'newSignIn'
      ? 'Your Lockit account was just signed in to from a browser it was not used from before.'
      : 'Someone entered your correct master password on Lockit, then failed the second sign-in step, so they were not let in.';
  const advice =
    mail.kind === 'newSignIn'
      ? [
          'If this was you, you need not do anything.',
          'If it was not you, change your master password now, end the sessions you do not know in Profile, and turn on two-factor sign-in.',
        ]
      : [
          'If this was you, you need not do anything.',
          'If it was not you, your master password is known to someone else: change it now. Your second factor kept them out this time.',
        ];
  const text = [`Hello ${mail.username},`, '', lead, '', ...details, '', ...advice].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(mail.username)},</p>`,
    `<p>${escapeHtml(lead)}</p>`,
    `<ul>${details.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    ...advice.map((line) => `<p>${escapeHtml(line)}</p>`),
  ].join('\n');
  const subject = mail.kind === 'newSignIn' ? NEW_SIGN_IN_SUBJECT : SECOND_FACTOR_FAILED_SUBJECT;
  return { subject, text, html };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
