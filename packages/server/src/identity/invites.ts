import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AppContext } from '../app-context';
import { browserUrl } from '../http/public-url';
import { HttpError } from '../http/http-error';
import { MESSAGES } from '../routes/messages';
import type { InviteRow } from '../db/repositories/invites-repository';
import type { Executor } from '../db/schema';
import { foldName } from './fold-name';
import { assertEmailDomainAllowed } from './sign-up-policy';

/**
 * Invitations (SIGNUP_MODE=invite, decision 0044).
 *
 * Invariants: the token is 32 bytes from the CSPRNG, returned once (inside the link) and
 * never stored or logged: the table holds its SHA-256, which is enough for a value that
 * cannot be guessed. An invitation creates at most one account: it is claimed by a
 * conditional update inside the transaction that inserts that account, so of two sign-ups
 * racing with one link exactly one commits.
 */

export type InviteContext = Pick<AppContext, 'config' | 'repos' | 'mailer' | 'now'>;

/** Open invitations one user may hold at once: bounds the mail a signed-in user can make the server send. */
export const MAX_OPEN_INVITES_PER_USER = 20;

export interface CreatedInvite {
  id: string;
  /** The secret: only ever inside `url`, shown once. */
  token: string;
  url: string;
  email: string | null;
  createdAt: number;
  expiresAt: number;
  /** True when the link also went out by mail (SMTP configured and an address given). */
  mailed: boolean;
}

export function hashInviteToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

/** The link a person opens: `<origin>/signup?invite=<token>`. */
export function inviteUrl(origin: string, token: string): string {
  const url = new URL('/signup', origin);
  url.searchParams.set('invite', token);
  return url.href;
}

/**
 * Makes an invitation. `invitedBy` null is the operator (lockit-admin, the admin page), who
 * may invite whatever the mode; a user's invitations are capped. `origin` is where the web
 * app is opened; default APP_ORIGIN, else this process's own address. With SMTP configured
 * and an address given, the link is also mailed (a failed mail leaves the invitation valid).
 */
export async function createInvite(
  ctx: InviteContext,
  options: { invitedBy: string | null; email?: string; origin?: string },
): Promise<CreatedInvite> {
  const email = options.email?.trim() || null;
  if (email !== null) assertEmailDomainAllowed(ctx.config.signup, email);
  const at = ctx.now();
  if (options.invitedBy !== null) {
    const open = await ctx.repos.invites.countOpen(options.invitedBy, at);
    if (open >= MAX_OPEN_INVITES_PER_USER) throw new HttpError(409, MESSAGES.tooManyOpenInvites);
  }
  const token = randomBytes(32).toString('base64url');
  const invite = {
    id: randomUUID(),
    token_hash: hashInviteToken(token),
    invited_by: options.invitedBy,
    email,
    email_folded: email === null ? null : foldName(email),
    created_at: at,
    expires_at: at + ctx.config.signup.inviteLifetimeMs,
    used_at: null,
    used_by: null,
  };
  await ctx.repos.invites.insert(invite);
  const origin = options.origin ?? ctx.config.appOrigin ?? browserUrl(ctx.config.host, ctx.config.port);
  const url = inviteUrl(origin, token);
  let mailed = false;
  if (email !== null && ctx.config.smtpUrl) {
    mailed = await ctx.mailer.sendInvite({ to: email, url, expiresAt: invite.expires_at }).then(
      () => true,
      () => false,
    );
  }
  return { id: invite.id, token, url, email, createdAt: at, expiresAt: invite.expires_at, mailed };
}

export function listOpenInvites(ctx: InviteContext, userId: string): Promise<InviteRow[]> {
  return ctx.repos.invites.listOpen(userId, ctx.now());
}

/** Revokes (deletes) one of the user's unused invitations; 404 when they have none with that id. */
export async function revokeInvite(ctx: InviteContext, userId: string, id: string): Promise<void> {
  if (!(await ctx.repos.invites.deleteOpen(userId, id))) throw new HttpError(404, MESSAGES.inviteNotFound);
}

/**
 * The invitation a sign-up presents, checked before any costly work: it must exist, be
 * unused and unexpired, and if it names an address, that must be the sign-up's. Says plainly
 * which of these failed. The claim itself happens later, in the sign-up's transaction.
 */
export async function findUsableInvite(ctx: InviteContext, token: string, emailFolded: string): Promise<InviteRow> {
  const invite = await ctx.repos.invites.findByTokenHash(hashInviteToken(token));
  if (!invite) throw new HttpError(403, MESSAGES.inviteInvalid);
  if (invite.used_at !== null) throw new HttpError(403, MESSAGES.inviteUsed);
  if (invite.expires_at <= ctx.now()) throw new HttpError(403, MESSAGES.inviteExpired);
  if (invite.email_folded !== null && invite.email_folded !== emailFolded) {
    throw new HttpError(403, MESSAGES.inviteForAnotherEmail);
  }
  return invite;
}

/**
 * Uses the invitation for the new account, inside the transaction that inserts it: a link
 * used (or expired) since it was checked makes the whole sign-up fail, and nothing is stored.
 */
export async function consumeInvite(ctx: InviteContext, inviteId: string, userId: string, at: number, trx: Executor) {
  if (!(await ctx.repos.invites.claim(inviteId, userId, at, trx))) throw new HttpError(403, MESSAGES.inviteUsed);
}
