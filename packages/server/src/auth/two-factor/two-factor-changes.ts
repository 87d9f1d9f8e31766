import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../app-context';
import type { Executor } from '../../db/schema';
import { hashRecoveryCode, newRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes';

type Ctx = Pick<AppContext, 'db' | 'repos' | 'now'>;

/**
 * Forgets every remembered browser of the user: their cookies name the old epoch. Call it,
 * in the same transaction, whenever a factor is added or removed, recovery codes are made
 * again, the owner asks to forget browsers, or the password changes.
 */
export async function raiseTwoFactorEpoch(ctx: Ctx, userId: string, ex: Executor = ctx.db): Promise<void> {
  await ctx.repos.twoFactor.raiseEpoch(userId, ex);
}

/**
 * A new set of recovery codes; the old ones (used or not) stop working. Returns the codes in
 * the clear, to be shown once: only their SHA-256 is stored. Does not raise the epoch.
 */
export async function makeNewRecoveryCodes(ctx: Ctx, userId: string, ex: Executor = ctx.db): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const rows = codes.map((code) => ({ id: randomUUID(), hash: hashRecoveryCode(code) }));
  await ctx.repos.twoFactor.replaceRecoveryCodes(userId, rows, ctx.now(), ex);
  return codes;
}

/**
 * With an account's first factor: a set of recovery codes when it has none (used ones count
 * as having a set, so adding a second factor never replaces codes the owner wrote down).
 * Returns the new codes to show once, or undefined when the account already had a set.
 */
export async function makeRecoveryCodesIfNone(ctx: Ctx, userId: string, ex: Executor = ctx.db): Promise<string[] | undefined> {
  if ((await ctx.repos.twoFactor.countRecoveryCodes(userId, ex)) > 0) return undefined;
  return makeNewRecoveryCodes(ctx, userId, ex);
}

/** Whether the user has any second factor: TOTP on, or a security key or passkey. */
export async function hasSecondFactor(ctx: Ctx, userId: string, ex: Executor = ctx.db): Promise<boolean> {
  const user = await ex.selectFrom('users').select('totp_secret').where('id', '=', userId).executeTakeFirst();
  return (user?.totp_secret ?? null) !== null || (await ctx.repos.twoFactor.hasCredentials(userId, ex));
}

/** After a factor is removed: with none left, recovery codes would recover nothing, so they go. */
export async function deleteRecoveryCodesIfNoFactor(ctx: Ctx, userId: string, ex: Executor = ctx.db): Promise<void> {
  if (!(await hasSecondFactor(ctx, userId, ex))) await ctx.repos.twoFactor.deleteRecoveryCodes(userId, ex);
}
