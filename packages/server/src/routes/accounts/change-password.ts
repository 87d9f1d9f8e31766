import { apiPaths, changePasswordRequestSchema } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { loadSignedInUser } from '../../auth/require-session';
import { hashAuthKey, verifyAuthKey } from '../../auth/password-hashing';
import { setSessionCookies } from '../../auth/session-cookies';
import { HttpError } from '../../http/http-error';
import { parseBody } from '../../http/parse-body';
import { MESSAGES } from '../messages';

/**
 * PUT /api/users/change-password. After checking the old authKey (under the sign-in
 * lockout), one transaction swaps the auth hash, KDF parameters, salt and wrapped vault key,
 * ends every session of the user (other devices are signed out) and opens a fresh one for
 * the caller. Entries are untouched: the vault key itself does not change.
 */
export const changePasswordRoute: RoutePlugin = async (app, { ctx }) => {
  app.put(apiPaths.changePassword, async (request, reply) => {
    const user = await loadSignedInUser(request, ctx.repos.users);
    const body = parseBody(changePasswordRequestSchema, request.body);
    // Wrong current passwords count like failed sign-ins: a stolen cookie must not become an
    // unlimited online guessing oracle for the master password.
    await ctx.rateLimits.beforeLogin(request.ip, user.username_folded);
    if (!(await verifyAuthKey(user.auth_hash, body.oldPassword))) throw new HttpError(403, MESSAGES.currentPasswordIncorrect);
    await ctx.rateLimits.loginSucceeded(request.ip, user.username_folded);
    const authHash = await hashAuthKey(body.newPassword);
    const tokens = await ctx.db.transaction().execute(async (trx) => {
      await ctx.repos.users.updateKeyMaterial(
        user.id,
        {
          authHash,
          kdfAlgorithm: body.kdf.algorithm,
          kdfMemoryKiB: body.kdf.memoryKiB,
          kdfIterations: body.kdf.iterations,
          kdfParallelism: body.kdf.parallelism,
          salt: body.salt,
          protectedKey: body.protectedKey,
        },
        ctx.now(),
        trx,
      );
      await ctx.repos.sessions.deleteByUserId(user.id, trx);
      return ctx.sessions.issue(user.id, request.headers['user-agent'], trx);
    });
    setSessionCookies(reply, ctx.config, tokens);
    return { message: MESSAGES.passwordUpdated };
  });
};
