import { randomUUID } from 'node:crypto';
import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { foldName } from '../../identity/fold-name';
import { consumeInvite, findUsableInvite } from '../../identity/invites';
import { assertSignUpAllowed } from '../../identity/sign-up-policy';
import { hashAuthKey } from '../../auth/password-hashing';
import { isUniqueViolation } from '../../db/create-database';
import { createExpiredRowsRepository } from '../../db/repositories/expired-rows-repository';
import type { UserRow } from '../../db/repositories/users-repository';
import { HttpError } from '../../http/http-error';
import { MESSAGES } from '../messages';

const HOUR_MS = 60 * 60 * 1000;

/**
 * POST /api/users/create. Stores the account unverified; the client asks for the code with
 * send-code right after. `password` is the authKey: only its Argon2id hash is stored.
 * SIGNUP_MODE and SIGNUP_ALLOWED_DOMAINS decide who may; in invite mode the invitation is
 * used in the same transaction as the insert, so one link makes at most one account.
 *
 * Enumeration: an e-mail address that already has an account (verified, or pending and not
 * expired) gets the very answer a new sign-up gets, after the same Argon2id work, and its
 * owner gets a mail saying someone tried; no account is made or changed. A taken user name
 * still answers 409: a name must be visible to be chosen (rate-limited like every sign-up).
 */
export const createUserRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.createUser, { config: { public: true } }, async (request, reply) => {
    const { body } = routeInput(request, 'create-user');
    const usernameFolded = foldName(body.username);
    const emailFolded = foldName(body.email);
    await ctx.rateLimits.hit('create', request.ip, emailFolded);
    // Who may sign up (decision 0044), before any costly work: Argon2id only for a request that may succeed.
    assertSignUpAllowed(ctx.config.signup, body);
    const invite =
      ctx.config.signup.mode === 'invite' && body.invite !== undefined
        ? await findUsableInvite(ctx, body.invite, emailFolded)
        : undefined;

    // An account left unverified past UNVERIFIED_ACCOUNT_HOURS holds nothing: its name and
    // e-mail go to this sign-up at once (it is deleted below), without waiting for the job.
    const cutoff = ctx.now() - ctx.config.unverifiedAccountHours * HOUR_MS;
    const holds = (user: UserRow | undefined): user is UserRow =>
      user !== undefined && !(user.verified_at === null && user.created_at <= cutoff);
    const nameTaken = async () => holds(await ctx.repos.users.findByFoldedUsername(usernameFolded));
    const emailHolder = async () => {
      const user = await ctx.repos.users.findByFoldedEmail(emailFolded);
      return holds(user) ? user : undefined;
    };
    const created = () =>
      reply.code(201).send({ message: MESSAGES.accountCreated, data: { username: body.username, email: body.email } });
    const answerTakenEmail = (owner: UserRow) => {
      const mail = { to: owner.email, username: owner.username, at: ctx.now() };
      ctx.background.run('sign-up attempt mail', () => ctx.mailer.sendSignUpAttempt(mail));
      return created();
    };
    if (await nameTaken()) throw new HttpError(409, MESSAGES.usernameTaken);
    const owner = await emailHolder();

    // Hashed whether or not the address is taken: the answer takes as long either way.
    const authHash = await hashAuthKey(body.password);
    if (owner) return answerTakenEmail(owner);
    const at = ctx.now();
    const userId = randomUUID();
    try {
      await ctx.db.transaction().execute(async (trx) => {
        const expired = createExpiredRowsRepository(ctx.db);
        const stale = await Promise.all([
          ctx.repos.users.findByFoldedUsername(usernameFolded, trx),
          ctx.repos.users.findByFoldedEmail(emailFolded, trx),
        ]);
        const staleIds = [...new Set(stale.filter((user) => user !== undefined).map((user) => user.id))];
        // Re-checked in the delete: one verified meanwhile stays, and the insert then conflicts.
        await expired.deleteUnverifiedUsers(staleIds, cutoff, trx);
        await ctx.repos.users.insert(
          {
            id: userId,
            username: body.username,
            username_folded: usernameFolded,
            email: body.email,
            email_folded: emailFolded,
            fullname: body.fullname,
            auth_hash: authHash,
            kdf_algorithm: body.kdf.algorithm,
            kdf_memory_kib: body.kdf.memoryKiB,
            kdf_iterations: body.kdf.iterations,
            kdf_parallelism: body.kdf.parallelism,
            salt: body.salt,
            protected_key: body.protectedKey,
            key_generation: body.keyGeneration ?? 0,
            verified_at: null,
            created_at: at,
            updated_at: at,
          },
          trx,
        );
        // After the insert: the claim names the new account, and fails the whole sign-up if the link was used meanwhile.
        if (invite) await consumeInvite(ctx, invite.id, userId, at, trx);
      });
    } catch (error) {
      // Another request took the name or email between our check and the insert.
      if (!isUniqueViolation(error)) throw error;
      if (await nameTaken()) throw new HttpError(409, MESSAGES.usernameTaken);
      const raced = await emailHolder();
      if (raced) return answerTakenEmail(raced);
      throw new HttpError(409, MESSAGES.usernameTaken);
    }
    return created();
  });
};
