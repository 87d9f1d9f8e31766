import { apiPaths, preloginRequestSchema } from '@lockit/contract';
import { DEFAULT_KDF_PARAMS } from '@lockit/crypto';
import type { RoutePlugin } from '../../app-context';
import { foldName } from '../../identity/fold-name';
import { fakeSaltFor } from '../../identity/prelogin-salt';
import { parseBody } from '../../http/parse-body';
import { MESSAGES } from '../messages';

/**
 * POST /api/users/prelogin: the KDF parameters and salt the client needs to derive authKey.
 * A name without an account gets the default parameters and a salt derived from the server
 * secret and the name: the same shape, stable over time, so existence is not revealed.
 */
export const preloginRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.prelogin, { config: { public: true } }, async (request) => {
    const body = parseBody(preloginRequestSchema, request.body);
    const usernameFolded = foldName(body.username);
    await ctx.rateLimits.hit('prelogin', request.ip, usernameFolded);

    const user = await ctx.repos.users.findByFoldedUsername(usernameFolded);
    const kdf = user
      ? {
          algorithm: user.kdf_algorithm,
          memoryKiB: user.kdf_memory_kib,
          iterations: user.kdf_iterations,
          parallelism: user.kdf_parallelism,
        }
      : {
          algorithm: DEFAULT_KDF_PARAMS.algorithm,
          memoryKiB: DEFAULT_KDF_PARAMS.memoryKiB,
          iterations: DEFAULT_KDF_PARAMS.iterations,
          parallelism: DEFAULT_KDF_PARAMS.parallelism,
        };
    const salt = user ? user.salt : fakeSaltFor(ctx.config.serverSecret, usernameFolded);
    return { message: MESSAGES.ok, data: { kdf, salt } };
  });
};
