import { z } from 'zod';
import { authKeySchema, ciphertextSchema } from './common';
import { keyEpochSchema } from './accounts';

/**
 * Two-factor sign-in and passkeys. A second factor guards the session only: the
 * vault's keys stay the master password's. A passkey with the PRF extension can also unlock:
 * it carries a copy of the vault key wrapped under a key only that passkey's PRF output gives
 * (`unlockKey`), which the server stores and cannot open.
 *
 * WebAuthn option and response objects are @simplewebauthn's JSON shapes; they are checked
 * here only for being objects of bounded size, and in full by @simplewebauthn on each side.
 */

/** The ways a pending sign-in can be completed. */
export const SECOND_FACTOR_METHODS = ['totp', 'webauthn', 'recovery'] as const;
export const secondFactorMethodSchema = z.enum(SECOND_FACTOR_METHODS);
export type SecondFactorMethod = z.infer<typeof secondFactorMethodSchema>;

/** The pending sign-in's token: 32 random bytes, base64url. */
export const pendingSignInTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a sign-in token');

/** A TOTP code as typed: digits, spaces ignored. */
export const totpCodeSchema = z
  .string()
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'must be 6 digits'));

/** A recovery code as typed: letters and digits, dashes and spaces ignored, any case. */
export const recoveryCodeSchema = z
  .string()
  .max(64, 'is too long')
  .transform((value) => value.replace(/[\s-]+/g, '').toUpperCase())
  .pipe(z.string().regex(/^[A-Z2-7]{16}$/, 'must be a recovery code such as ABCD-EFGH-IJKL-MNOP'));

/** A WebAuthn ceremony's JSON (options or response), at most 16 KiB of JSON. */
export const webauthnJsonSchema = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= 16_384, 'is too large');

/** A name the owner gives a security key or passkey. */
export const credentialNameSchema = z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters');

/** The vault key wrapped under a passkey's PRF-derived key (the client's format, opaque here). */
export const passkeyUnlockKeySchema = ciphertextSchema(200);
/** The PRF input, 32 random bytes base64url. */
export const prfSaltSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be 32 bytes, base64url');

// POST /api/users/login may answer 200 with this instead of the spec's data, when the account
// has a second factor and this browser is not remembered: no session yet, no wrapped key.
export const secondFactorRequiredSchema = z.object({
  message: z.string(),
  data: z.object({
    secondFactor: z.object({
      token: pendingSignInTokenSchema,
      /** The methods this account has, in the order the app offers them. */
      methods: z.array(secondFactorMethodSchema).min(1),
      /** ISO time the token stops working (minutes, not hours). */
      expiresAt: z.iso.datetime(),
    }),
  }),
});
export type SecondFactorRequired = z.infer<typeof secondFactorRequiredSchema>['data']['secondFactor'];

// POST /api/users/login/second-factor — completes a pending sign-in with a TOTP or recovery code.
export const secondFactorRequestSchema = z.discriminatedUnion('method', [
  z.object({
    token: pendingSignInTokenSchema,
    method: z.literal('totp'),
    code: totpCodeSchema,
    remember: z.boolean().default(false),
  }),
  z.object({
    token: pendingSignInTokenSchema,
    method: z.literal('recovery'),
    code: recoveryCodeSchema,
    remember: z.boolean().default(false),
  }),
]);
export type SecondFactorRequest = z.input<typeof secondFactorRequestSchema>;

/** The spec's login data, and how many recovery codes are left when one was used. */
export const secondFactorResponseSchema = z.object({
  message: z.string(),
  data: z.object({
    username: z.string(),
    email: z.string(),
    protectedKey: z.string(),
    /** As login's: the key epoch protectedKey binds. */
    keyEpoch: z.unknown().optional(),
    /** As login's: the account id. */
    userId: z.string().max(100).optional(),
    recoveryCodesLeft: z.number().int().nonnegative().optional(),
  }),
});
export type SecondFactorResponse = z.infer<typeof secondFactorResponseSchema>;

// POST /api/users/login/webauthn-options — a security-key challenge for a pending sign-in.
export const webauthnSignInOptionsRequestSchema = z.object({ token: pendingSignInTokenSchema });
export const webauthnOptionsResponseSchema = z.object({
  message: z.string(),
  data: z.object({ options: webauthnJsonSchema }),
});

// POST /api/users/login/webauthn — completes a pending sign-in with a security key; answers as secondFactorResponseSchema.
export const webauthnSecondFactorRequestSchema = z.object({
  token: pendingSignInTokenSchema,
  response: webauthnJsonSchema,
  remember: z.boolean().default(false),
});

// POST /api/users/passkey/options — a discoverable-credential challenge for passkey sign-in (public).
export const webauthnChallengeIdSchema = z.uuid('must be a challenge id');
export const passkeyOptionsResponseSchema = z.object({
  message: z.string(),
  data: z.object({ challengeId: webauthnChallengeIdSchema, options: webauthnJsonSchema }),
});

// POST /api/users/passkey/sign-in — signs in with a passkey alone (it is both factors).
export const passkeySignInRequestSchema = z.object({ challengeId: webauthnChallengeIdSchema, response: webauthnJsonSchema });
/**
 * `unlockKey`/`unlockSalt` are null for a credential registered without PRF: the session is
 * open but the vault needs the master password. The client trusts neither: the unlock key's
 * associated data binds the account and the credential id the authenticator itself answered.
 */
export const passkeySignInResponseSchema = z.object({
  message: z.string(),
  data: z.object({
    username: z.string(),
    email: z.string(),
    userId: z.string(),
    credentialId: z.string(),
    unlockKey: z.string().nullable(),
    unlockSalt: z.string().nullable(),
  }),
});
export type PasskeySignInResponse = z.infer<typeof passkeySignInResponseSchema>['data'];

/** One security key or passkey as Profile lists it. */
export const webauthnCredentialSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  /** Holds a PRF-wrapped vault key: signs in and unlocks on its own. */
  canUnlock: z.boolean(),
  /** A synced passkey (backed up by its provider). */
  backedUp: z.boolean(),
});
export type WebauthnCredential = z.infer<typeof webauthnCredentialSchema>;

// GET /api/user/two-factor — the caller's factors.
export const twoFactorStatusResponseSchema = z.object({
  message: z.string(),
  data: z.object({
    totp: z.boolean(),
    recoveryCodesLeft: z.number().int().nonnegative(),
    credentials: z.array(webauthnCredentialSchema),
    /** Days "remember this browser" lasts; 0: the operator turned it off. */
    rememberBrowserDays: z.number().int().nonnegative(),
  }),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusResponseSchema>['data'];

/** Sensitive 2FA changes carry the current authKey (derived from the master password). */
export const reauthRequestSchema = z.object({ password: authKeySchema });

// POST /api/user/two-factor/totp/setup — a new seed to enrol (not on until confirmed).
export const totpSetupResponseSchema = z.object({
  message: z.string(),
  data: z.object({
    /** Base32, as authenticator apps take it typed. */
    secret: z.string(),
    /** otpauth://totp/Lockit:<username>?secret=...&issuer=Lockit, for the QR code. */
    uri: z.string().startsWith('otpauth://totp/'),
  }),
});

// POST /api/user/two-factor/totp/confirm — turns TOTP on with a code from the app.
export const totpConfirmRequestSchema = z.object({ code: totpCodeSchema });
/** `recoveryCodes`: made with the account's first factor, shown once. */
export const factorAddedResponseSchema = z.object({
  message: z.string(),
  data: z.object({ recoveryCodes: z.array(z.string()).optional() }),
});

// POST /api/user/two-factor/totp/disable — reauthRequestSchema.
// POST /api/user/two-factor/recovery-codes — reauthRequestSchema; new codes, the old ones stop working.
export const recoveryCodesResponseSchema = z.object({
  message: z.string(),
  data: z.object({ recoveryCodes: z.array(z.string()).length(10) }),
});
// POST /api/user/two-factor/forget-browsers — every remembered browser asks for a factor again.

// POST /api/user/webauthn/register-options — reauthRequestSchema plus whether it is a passkey.
export const webauthnRegisterOptionsRequestSchema = z.object({
  password: authKeySchema,
  /** A passkey (discoverable, user verification required) that may also sign in; else a security key. */
  passkey: z.boolean(),
});
export const webauthnRegisterOptionsResponseSchema = z.object({
  message: z.string(),
  data: z.object({ challengeId: webauthnChallengeIdSchema, options: webauthnJsonSchema }),
});

// POST /api/user/webauthn/register — answers factorAddedResponseSchema plus the credential.
export const webauthnRegisterRequestSchema = z.object({
  challengeId: webauthnChallengeIdSchema,
  name: credentialNameSchema,
  response: webauthnJsonSchema,
});
export const webauthnRegisterResponseSchema = z.object({
  message: z.string(),
  data: z.object({ credential: webauthnCredentialSchema, recoveryCodes: z.array(z.string()).optional() }),
});

// PUT /api/user/webauthn/{id}/unlock — stores the PRF-wrapped vault key of a credential.
/**
 * `keyEpoch`: the key epoch of the vault key wrapped (absent: 0, as from clients before epochs).
 * The server stores the unlock key only while the account's vault key is still of that epoch, so
 * a wrap of a key that a rotation replaced meanwhile is never kept.
 */
export const webauthnUnlockKeyRequestSchema = z.object({
  unlockKey: passkeyUnlockKeySchema,
  unlockSalt: prfSaltSchema,
  keyEpoch: keyEpochSchema.optional(),
});
// PATCH /api/user/webauthn/{id} — renames it.
export const webauthnRenameRequestSchema = z.object({ name: credentialNameSchema });
// POST /api/user/webauthn/{id}/remove — reauthRequestSchema; removes it and its unlock key.
