import { randomUUID } from 'node:crypto';
import { apiPaths, createUserRequestSchema } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { foldName } from '../../identity/fold-name';
import { hashAuthKey } from '../../auth/password-hashing';
import { isUniqueViolation } from '../../db/create-database';
import { HttpError } from '../../http/http-error';
import { parseBody } from '../../http/parse-body';
import { MESSAGES } from '../messages';

/**
 * POST /api/users/create. Stores the account unverified; the client asks for the code with
 * send-code right after. `password` is the authKey: only its Argon2id hash is stored.
 */
export const createUserRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.createUser, { config: { public: true } }, async (request, reply) => {
    const body = parseBody(createUserRequestSchema, request.body);
    const usernameFolded = foldName(body.username);
    const emailFolded = foldName(body.email);
    await ctx.rateLimits.hit('create', request.ip, emailFolded);

    const conflict = async () => {
      if (await ctx.repos.users.findByFoldedUsername(usernameFolded)) return MESSAGES.usernameTaken;
      if (await ctx.repos.users.findByFoldedEmail(emailFolded)) return MESSAGES.emailTaken;
      return undefined;
    };
    const taken = await conflict();
    if (taken) throw new HttpError(409, taken);

    const authHash = await hashAuthKey(body.password);
    const at = ctx.now();
    try {
      await ctx.repos.users.insert({
        id: randomUUID(),
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
        verified_at: null,
        created_at: at,
        updated_at: at,
      });
    } catch (error) {
      // Another request took the name or email between our check and the insert.
      if (isUniqueViolation(error)) throw new HttpError(409, (await conflict()) ?? MESSAGES.usernameTaken);
      throw error;
    }
    return reply.code(201).send({
      message: MESSAGES.accountCreated,
      data: { username: body.username, email: body.email },
    });
  });
};
