import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { loadSignedInUser } from '../../auth/require-session';
import { MESSAGES } from '../messages';

/**
 * GET /api/user/key-material: what an Unlock needs (KDF parameters, salt, wrapped vault key)
 * for a session whose vault is locked in the browser. Session-only, like the entries: the
 * wrapped key is useless without the master password, and its AAD binds the parameters.
 * `passkeyUnlock` says whether a passkey of the account can unlock instead (Unlock with a passkey).
 */
export const keyMaterialRoute: RoutePlugin = async (app, { ctx }) => {
  app.get(apiPaths.keyMaterial, async (request) => {
    const user = await loadSignedInUser(request, ctx.repos.users);
    return {
      message: MESSAGES.success,
      data: {
        kdf: {
          algorithm: user.kdf_algorithm,
          memoryKiB: user.kdf_memory_kib,
          iterations: user.kdf_iterations,
          parallelism: user.kdf_parallelism,
        },
        salt: user.salt,
        protectedKey: user.protected_key,
        keyGeneration: user.key_generation,
        // The epoch the wrapped key (and every passkey's unlock key) binds: the browser refuses one
        // below what it saw, and the wraps' associated data refuses any other.
        keyEpoch: Number(user.key_epoch),
        // Only whether the Unlock screen should offer a passkey; the unlock keys stay behind
        // a passkey assertion (POST passkey/unlock).
        passkeyUnlock: await ctx.repos.webauthn.hasUnlocking(user.id),
      },
    };
  });
};
