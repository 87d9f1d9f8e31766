import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { loadSignedInUser } from '../../auth/require-session';
import { hashAuthKey, verifyAuthKey } from '../../auth/password-hashing';
import { setSessionCookies } from '../../auth/session-cookies';
import { HttpError } from '../../http/http-error';
import { MESSAGES } from '../messages';
import { sessionClientOf } from '../../auth/session-client';
import { raiseTwoFactorEpoch } from '../../auth/two-factor/two-factor-changes';

/**
 * PUT /api/users/change-password. After checking the old authKey (under its own per-account
 * limit, not sign-in's: decision 0047), one transaction swaps the auth hash, KDF parameters, salt and wrapped vault key,
 * ends every session of the user (other devices are signed out) and opens a fresh one for
 * the caller. Entries are untouched: the vault key itself does not change.
 *
 * The new wrap names its key generation, which must be exactly the stored one + 1:
 * anything else is a 409 and changes nothing, so of two changes racing from the same
 * generation only one is stored (the UPDATE is conditional on the generation it raises).
 */
export const changePasswordRoute: RoutePlugin = async (app, { ctx }) => {
  app.put(apiPaths.changePassword, async (request, reply) => {
    const user = await loadSignedInUser(request, ctx.repos.users);
    const { body } = routeInput(request, 'change-password');
    // Rationed per account, so a stolen cookie is no unlimited guessing oracle for the master
    // password; apart from sign-in's limits, so strangers' failed sign-ins never block it.
    await ctx.rateLimits.beforePasswordCheck(user.id);
    if (!(await verifyAuthKey(user.auth_hash, body.oldPassword))) throw new HttpError(403, MESSAGES.currentPasswordIncorrect);
    await ctx.rateLimits.passwordCheckSucceeded(user.id);
    if (body.keyGeneration !== user.key_generation + 1) throw new HttpError(409, MESSAGES.keyGenerationConflict);
    const authHash = await hashAuthKey(body.newPassword);
    const tokens = await ctx.db.transaction().execute(async (trx) => {
      const stored = await ctx.repos.users.updateKeyMaterial(
        user.id,
        {
          authHash,
          kdfAlgorithm: body.kdf.algorithm,
          kdfMemoryKiB: body.kdf.memoryKiB,
          kdfIterations: body.kdf.iterations,
          kdfParallelism: body.kdf.parallelism,
          salt: body.salt,
          protectedKey: body.protectedKey,
          keyGeneration: body.keyGeneration,
        },
        ctx.now(),
        trx,
      );
      // Another change raised the generation between the read above and this write.
      if (!stored) throw new HttpError(409, MESSAGES.keyGenerationConflict);
      await ctx.repos.sessions.deleteByUserId(user.id, trx);
      // Remembered browsers skipped the second factor on the old password's word: forget them.
      await raiseTwoFactorEpoch(ctx, user.id, trx);
      return ctx.sessions.issue(user.id, sessionClientOf(request), trx);
    });
    ctx.live.sessionsEnded(user.id);
    setSessionCookies(reply, ctx.config, tokens);
    return { message: MESSAGES.passwordUpdated };
  });
};
