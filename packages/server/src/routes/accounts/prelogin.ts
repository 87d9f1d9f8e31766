import { apiPaths } from '@lockit/contract';
import { DEFAULT_KDF_PARAMS } from '@lockit/crypto';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { foldName } from '../../identity/fold-name';
import { fakeKeyGenerationFor, fakeSaltFor } from '../../identity/prelogin-salt';
import { deviceCookieOf } from '../../auth/device-cookies';
import { MESSAGES } from '../messages';

/**
 * POST /api/users/prelogin: the KDF parameters and salt the client needs to derive authKey.
 * A name without an account gets the default parameters and a salt derived from the server
 * secret and the name: the same shape, stable over time, so existence is not revealed.
 * The key generation is answered the same way: the account's, or a stable one
 * derived from the server secret and the name.
 * Limited per address only (decision 0047), or per device cookie for a browser that signed in
 * to the account before: no one else can keep the account's owner out.
 */
export const preloginRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.prelogin, { config: { public: true } }, async (request) => {
    const { body } = routeInput(request, 'prelogin');
    const usernameFolded = foldName(body.username);
    const findUser = () => ctx.repos.users.findByFoldedUsername(usernameFolded);
    // A browser with this account's device cookie has its own allowance, not its address's.
    const device = deviceCookieOf(request, ctx.config, ctx.now());
    const known = device ? await findUser() : undefined;
    if (device && known?.id === device.userId) await ctx.rateLimits.hitPreloginByDevice(device.nonce);
    else await ctx.rateLimits.hit('prelogin', request.ip, usernameFolded);

    const user = device ? known : await findUser();
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
    const keyGeneration = user ? user.key_generation : fakeKeyGenerationFor(ctx.config.serverSecret, usernameFolded);
    return { message: MESSAGES.ok, data: { kdf, salt, keyGeneration } };
  });
};
