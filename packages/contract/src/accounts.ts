import { MAX_KEY_EPOCH, MAX_KEY_GENERATION } from '@lockit/crypto';
import { z } from 'zod';
import {
  authKeySchema,
  ciphertextSchema,
  emailSchema,
  fullnameSchema,
  kdfParamsSchema,
  saltSchema,
  usernameSchema,
} from './common';
import { inviteTokenSchema } from './invites';

/** The wrapped vault key: AES-GCM of 32 bytes under wrapKey. */
export const protectedKeySchema = ciphertextSchema(200);

/**
 * The generation of the wrapped vault key: 0 at sign-up, +1 with every password
 * change; the wrap's associated data binds it. In answers it is optional so older answers
 * parse (absent means 0); the client never trusts it beyond that binding and its own memory
 * of the highest generation it has seen.
 */
export const keyGenerationSchema = z.number().int().min(0).max(MAX_KEY_GENERATION);

/**
 * The key epoch of the vault key: 0 for the key made at sign-up, +1 with every key rotation (a
 * password change keeps it: the key stays). Every wrap of the vault key (the master password's, a
 * passkey's) binds it in its associated data. In answers it is optional so older answers parse
 * (absent means 0); the client never trusts it beyond that binding and its own memory of the
 * highest epoch it has seen.
 */
export const keyEpochSchema = z.number().int().min(0).max(MAX_KEY_EPOCH);

/** Keys a client sends whenever it sets a master password (sign-up, change password). */
const keyMaterial = {
  kdf: kdfParamsSchema,
  salt: saltSchema,
  protectedKey: protectedKeySchema,
};

// POST /api/users/create — the spec's fields; `password` carries authKey.
export const createUserRequestSchema = z.object({
  fullname: fullnameSchema,
  username: usernameSchema,
  email: emailSchema,
  password: authKeySchema,
  ...keyMaterial,
  /** The invitation link's token; required when SIGNUP_MODE is invite, ignored otherwise. */
  invite: inviteTokenSchema.optional(),
  /**
   * The generation the wrap was made for: 1 from this web app (a new account's first key);
   * absent means 0, the generation of wraps made before generations existed.
   */
  keyGeneration: keyGenerationSchema.max(1).optional(),
});
export type CreateUserRequest = z.infer<typeof createUserRequestSchema>;
export const createUserResponseSchema = z.object({
  message: z.string(),
  data: z.object({ username: z.string(), email: z.string() }),
});
export type CreateUserResponse = z.infer<typeof createUserResponseSchema>;

// POST /api/email/send-code
export const sendCodeRequestSchema = z.object({ email: emailSchema, username: usernameSchema });
export type SendCodeRequest = z.infer<typeof sendCodeRequestSchema>;
/** `delivery`: an opaque ticket for GET mailDelivery (decision 0043); absent from older servers. */
export const sendCodeResponseSchema = z.object({
  message: z.string(),
  data: z.object({ delivery: z.string().optional() }).optional(),
});
export type SendCodeResponse = z.infer<typeof sendCodeResponseSchema>;

// GET /api/email/delivery/{ticket}
export const DELIVERY_TICKET_PATTERN = /^[A-Za-z0-9_-]{22}$/;
export const deliveryStatusSchema = z.enum(['pending', 'sent', 'failed']);
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;
export const mailDeliveryResponseSchema = z.object({
  message: z.string(),
  data: z.object({ status: deliveryStatusSchema }),
});
export type MailDeliveryResponse = z.infer<typeof mailDeliveryResponseSchema>;

// POST /api/email/verify-code
export const VERIFICATION_CODE_LENGTH = 6;
export const verifyCodeRequestSchema = z.object({
  email: emailSchema,
  username: usernameSchema,
  code: z.string().trim().length(VERIFICATION_CODE_LENGTH, `must be ${VERIFICATION_CODE_LENGTH} characters`),
});
export type VerifyCodeRequest = z.infer<typeof verifyCodeRequestSchema>;

// POST /api/users/prelogin — salt and KDF parameters, before any key is derived.
export const preloginRequestSchema = z.object({ username: usernameSchema });
export type PreloginRequest = z.infer<typeof preloginRequestSchema>;
export const preloginResponseSchema = z.object({
  message: z.string(),
  data: z.object({ kdf: z.unknown(), salt: z.string(), keyGeneration: z.unknown().optional() }),
});
export type PreloginResponse = z.infer<typeof preloginResponseSchema>;

// POST /api/users/login — `password` carries authKey.
export const loginRequestSchema = z.object({ username: usernameSchema, password: authKeySchema });
export type LoginRequest = z.infer<typeof loginRequestSchema>;
/**
 * The client must not trust `kdf`, `salt` or `protectedKey` here: it unwraps with the
 * parameters it checked at prelogin, and the wrap's associated data binds them.
 */
export const loginResponseSchema = z.object({
  message: z.string(),
  data: z.object({
    username: z.string(),
    email: z.string(),
    protectedKey: z.string(),
    keyGeneration: z.unknown().optional(),
    keyEpoch: z.unknown().optional(),
    /** The account id (its passkeys' user handle), so a browser can find its memory at a later passkey sign-in. Absent from older servers. */
    userId: z.string().max(100).optional(),
  }),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** Sent by login for an unverified account (403), so the client can offer the code form. */
export const unverifiedResponseSchema = z.object({
  message: z.string(),
  data: z.object({ username: z.string(), email: z.string(), unverified: z.literal(true) }),
});

// POST /api/users/verify — message SESSION_VALID_MESSAGE (paths.ts) for a valid session.
export const verifySessionResponseSchema = z.object({
  message: z.string(),
  data: z.object({ username: z.string() }).optional(),
});

// GET /api/user/profile
export const profileResponseSchema = z.object({
  message: z.string(),
  data: z.object({ username: z.string(), email: z.string(), fullname: z.string() }),
});
export type ProfileResponse = z.infer<typeof profileResponseSchema>;

// GET /api/user/key-material — for unlocking a locked vault without a new sign-in.
/**
 * As with login, the client must not trust these: it checks `kdf` against its policy and
 * unwraps `protectedKey` with AAD binding `kdf` and `salt`, so tampering fails the unwrap.
 */
export const keyMaterialResponseSchema = z.object({
  message: z.string(),
  data: z.object({
    kdf: z.unknown(),
    salt: z.string(),
    protectedKey: z.string(),
    keyGeneration: z.unknown().optional(),
    keyEpoch: z.unknown().optional(),
    /** The account has a passkey holding an unlock key: the Unlock screen offers it. Absent from older servers. */
    passkeyUnlock: z.boolean().optional(),
  }),
});
export type KeyMaterialResponse = z.infer<typeof keyMaterialResponseSchema>;

// PUT /api/users/update-username
export const updateUsernameRequestSchema = z.object({ username: usernameSchema });
export type UpdateUsernameRequest = z.infer<typeof updateUsernameRequestSchema>;
export const updateUsernameResponseSchema = z.object({
  message: z.string(),
  data: z.object({ username: z.string() }),
});

// PUT /api/users/change-password — old and new authKey, and the re-wrapped vault key.
/** `keyGeneration`: the generation the new wrap was made for; the server stores it only if it is exactly the current one + 1. */
export const changePasswordRequestSchema = z.object({
  oldPassword: authKeySchema,
  newPassword: authKeySchema,
  ...keyMaterial,
  keyGeneration: keyGenerationSchema.min(1),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;
