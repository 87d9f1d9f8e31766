import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../app-context';
import type { PendingSignInRow } from '../../db/repositories/two-factor-repository';
import type { UserRow } from '../../db/repositories/users-repository';
import { hashToken, newToken } from '../tokens';
import type { AdmittedUser } from '../sign-in-policy';
import { queueSignInAlert, type SignInOrigin } from './sign-in-alerts';

export type { PendingSignInRow } from '../../db/repositories/two-factor-repository';

/** How long a correct password waits for its second factor. */
export const PENDING_SIGN_IN_LIFETIME_MS = 5 * 60_000;
/** Wrong second factors one pending sign-in takes; at this count it is dead. */
export const MAX_PENDING_FAILURES = 5;

type Ctx = Pick<AppContext, 'repos' | 'now' | 'mailer' | 'background'>;

/**
 * Starts a pending sign-in after a correct master password on an account with a second factor
 * that the sign-in policy admitted.
 *
 * Security invariants: the token is 32 random bytes (base64url) handed to the browser once;
 * only its SHA-256 is stored, so a database copy cannot complete a sign-in. It lives 5
 * minutes and takes at most MAX_PENDING_FAILURES wrong factors. It holds no session and no
 * key: until a factor completes it, the password alone opened nothing.
 */
export async function startPendingSignIn(
  ctx: Ctx,
  user: AdmittedUser,
  options: { knownDevice: boolean; origin: SignInOrigin },
): Promise<{ token: string; expiresAt: number }> {
  const userId = user.id;
  const token = newToken();
  const now = ctx.now();
  const expiresAt = now + PENDING_SIGN_IN_LIFETIME_MS;
  // Swept per account, as sessions are at issue: an account's dead rows never pile up.
  await ctx.repos.twoFactor.deleteExpiredPendingSignInsOf(userId, now);
  await ctx.repos.twoFactor.insertPendingSignIn({
    id: randomUUID(),
    user_id: userId,
    token_hash: hashToken(token),
    known_device: options.knownDevice ? 1 : 0,
    address: options.origin.address,
    user_agent: options.origin.userAgent,
    created_at: now,
    expires_at: expiresAt,
  });
  return { token, expiresAt };
}

/**
 * The pending sign-in a token names, only while it can still be completed: not expired and
 * under MAX_PENDING_FAILURES failures. Undefined otherwise (answer "expired, sign in again").
 * Finding it does not consume it: a completion must `deletePendingSignIn` and proceed only
 * when that returns true.
 */
export async function findPendingSignIn(
  ctx: Pick<AppContext, 'repos' | 'now'>,
  token: string,
): Promise<PendingSignInRow | undefined> {
  const row = await ctx.repos.twoFactor.findPendingByTokenHash(hashToken(token));
  if (!row || row.expires_at <= ctx.now() || row.failures >= MAX_PENDING_FAILURES) return undefined;
  return row;
}

/**
 * Counts one wrong second factor of a pending sign-in. The first failure of each pending
 * sign-in sends the owner the "correct password, failed second step" mail, exactly once
 * (claimed by a conditional update, so concurrent failures send one). Returns the failure
 * count and whether the pending sign-in is now dead (MAX_PENDING_FAILURES reached).
 */
export async function recordPendingFailure(
  ctx: Ctx,
  pending: Pick<PendingSignInRow, 'id' | 'user_id' | 'address' | 'user_agent'>,
  user?: Pick<UserRow, 'email' | 'username'>,
): Promise<{ failures: number; dead: boolean }> {
  const failures = await ctx.repos.twoFactor.addPendingFailure(pending.id);
  if (await ctx.repos.twoFactor.claimFailureMail(pending.id)) {
    const owner = user ?? (await ctx.repos.users.findById(pending.user_id));
    if (owner) queueSignInAlert(ctx, owner, 'secondFactorFailed', { address: pending.address, userAgent: pending.user_agent });
  }
  return { failures, dead: failures >= MAX_PENDING_FAILURES };
}

/** Keeps the WebAuthn challenge issued for this pending sign-in (replacing an earlier one). */
export async function setPendingWebauthnChallenge(ctx: Pick<AppContext, 'repos'>, id: string, challenge: string): Promise<void> {
  await ctx.repos.twoFactor.setPendingChallenge(id, challenge);
}

/**
 * Ends a pending sign-in. True only for the call that deleted it: a completion proceeds only
 * on true, which makes each pending sign-in single use even under concurrent completions.
 */
export async function deletePendingSignIn(ctx: Pick<AppContext, 'repos'>, id: string): Promise<boolean> {
  return ctx.repos.twoFactor.deletePendingSignIn(id);
}
