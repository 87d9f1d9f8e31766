import { z } from 'zod';
import { webauthnChallengeIdSchema, webauthnJsonSchema } from './two-factor';

/**
 * Unlock with a passkey: a signed-in session whose vault is locked in this tab opens
 * it with a passkey that holds an unlock key, instead of the master password. Both calls act on
 * the session's own account only.
 */

// POST /api/user/passkey/unlock-options — a challenge for the session's passkeys that can unlock.
/** `options.allowCredentials` lists only the caller's credentials that hold an unlock key. */
export const passkeyUnlockOptionsResponseSchema = z.object({
  message: z.string(),
  data: z.object({ challengeId: webauthnChallengeIdSchema, options: webauthnJsonSchema }),
});

// POST /api/user/passkey/unlock — the assertion; answers that credential's unlock key.
export const passkeyUnlockRequestSchema = z.object({ challengeId: webauthnChallengeIdSchema, response: webauthnJsonSchema });
/**
 * The credential's unlock key and the server's ids, all untrusted and so only strings here (a
 * malformed key is the crypto's refusal, said as such): the client unwraps it bound to the credential id its
 * authenticator answered, so another credential's or another account's key fails the tag.
 */
export const passkeyUnlockResponseSchema = z.object({
  message: z.string(),
  data: z.object({
    userId: z.string(),
    credentialId: z.string(),
    unlockKey: z.string(),
    unlockSalt: z.string(),
  }),
});
export type PasskeyUnlockResponse = z.infer<typeof passkeyUnlockResponseSchema>['data'];
