import { describe, expect, it } from 'vitest';
import { checkKdfParams, DEFAULT_KDF_PARAMS, formatCiphertext, KDF_LIMITS, randomSalt, toBase64Url } from '@lockit/crypto';
import {
  changePasswordRequestSchema,
  createUserRequestSchema,
  loginRequestSchema,
  sendCodeRequestSchema,
  verifyCodeRequestSchema,
} from './accounts';
import { kdfParamsSchema, usernameSchema } from './common';

const AUTH_KEY = toBase64Url(new Uint8Array(32).fill(1));
const OTHER_AUTH_KEY = toBase64Url(new Uint8Array(32).fill(2));
/** A wrapped vault key: 32 bytes of key plus the 16-byte tag. */
const PROTECTED_KEY = formatCiphertext(new Uint8Array(12).fill(3), new Uint8Array(48).fill(4));

const signUp = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  fullname: 'Alice Liddell',
  username: 'alice',
  email: 'alice@example.com',
  password: AUTH_KEY,
  kdf: { ...DEFAULT_KDF_PARAMS },
  salt: randomSalt(),
  protectedKey: PROTECTED_KEY,
  ...overrides,
});

function firstIssue(result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return result.error?.issues[0];
}

describe('usernameSchema', () => {
  it('accepts letters of any script, digits, dots, dashes and underscores, trimmed', () => {
    for (const name of ['alice', 'Zoë.o_1-x', 'Δημήτρης', 'a_b']) expect(usernameSchema.parse(name)).toBe(name);
    expect(usernameSchema.parse('  alice  ')).toBe('alice');
  });

  it('says why a name is refused', () => {
    expect(firstIssue(usernameSchema.safeParse(' ab '))?.message).toBe('must be at least 3 characters');
    expect(firstIssue(usernameSchema.safeParse('a'.repeat(33)))?.message).toBe('must be at most 32 characters');
    for (const name of ['al ice', 'alice@home', 'alice/..', '<b>alice</b>']) {
      expect(firstIssue(usernameSchema.safeParse(name))?.message, name).toBe(
        'may contain only letters, digits, dots, dashes and underscores',
      );
    }
  });
});

describe('createUserRequestSchema', () => {
  it('accepts the spec fields, with authKey as the password, and the key material', () => {
    const body = signUp();
    expect(createUserRequestSchema.parse(body)).toEqual(body);
  });

  it('refuses a master password where the authKey belongs', () => {
    expect(firstIssue(createUserRequestSchema.safeParse(signUp({ password: 'correct horse battery staple' })))).toMatchObject({
      path: ['password'],
      message: 'must be 32 bytes of base64url',
    });
    const padded = `${AUTH_KEY.slice(0, 42)}=`;
    expect(firstIssue(createUserRequestSchema.safeParse(signUp({ password: padded })))?.message).toBe('must be base64url');
  });

  it('refuses an address that is not one, saying so, and trims one that is', () => {
    expect(firstIssue(createUserRequestSchema.safeParse(signUp({ email: 'alice' })))).toMatchObject({
      path: ['email'],
      message: 'must be an email address',
    });
    expect(createUserRequestSchema.parse(signUp({ email: ' alice@example.com ' })).email).toBe('alice@example.com');
    expect(firstIssue(createUserRequestSchema.safeParse(signUp({ email: `${'a'.repeat(250)}@example.com` })))?.path).toEqual([
      'email',
    ]);
  });

  it('requires a full name of at most 100 characters', () => {
    expect(firstIssue(createUserRequestSchema.safeParse(signUp({ fullname: '   ' })))?.message).toBe('is required');
    expect(firstIssue(createUserRequestSchema.safeParse(signUp({ fullname: 'A'.repeat(101) })))?.message).toBe(
      'must be at most 100 characters',
    );
  });

  it('requires a 16-byte salt and a wrapped key in the ciphertext format', () => {
    expect(firstIssue(createUserRequestSchema.safeParse(signUp({ salt: 'alice' })))?.path).toEqual(['salt']);
    expect(firstIssue(createUserRequestSchema.safeParse(signUp({ protectedKey: AUTH_KEY })))).toMatchObject({
      path: ['protectedKey'],
      message: 'must be a Lockit ciphertext (v1.<iv>.<data>), never plaintext',
    });
  });

  it('drops fields it does not know, so a client cannot set them', () => {
    const parsed = createUserRequestSchema.parse(signUp({ verifiedAt: 1, isAdmin: true, authHash: 'x' }));
    expect(parsed).not.toHaveProperty('verifiedAt');
    expect(parsed).not.toHaveProperty('isAdmin');
    expect(parsed).not.toHaveProperty('authHash');
  });
});

describe('kdfParamsSchema', () => {
  const { minMemoryKiB, maxMemoryKiB, minIterations, maxIterations, minParallelism, maxParallelism } = KDF_LIMITS;
  const params = (overrides: Record<string, unknown>) => ({ ...DEFAULT_KDF_PARAMS, ...overrides });
  const candidates = [
    params({}),
    params({ memoryKiB: minMemoryKiB }),
    params({ memoryKiB: minMemoryKiB - 1 }),
    params({ memoryKiB: maxMemoryKiB }),
    params({ memoryKiB: maxMemoryKiB + 1 }),
    params({ iterations: minIterations }),
    params({ iterations: minIterations - 1 }),
    params({ iterations: maxIterations }),
    params({ iterations: maxIterations + 1 }),
    params({ parallelism: minParallelism }),
    params({ parallelism: minParallelism - 1 }),
    params({ parallelism: maxParallelism }),
    params({ parallelism: maxParallelism + 1 }),
    params({ memoryKiB: 65_536.5 }),
    params({ iterations: '3' }),
    params({ algorithm: 'argon2i' }),
  ];

  it('stores exactly the parameters the client would derive keys with', () => {
    for (const candidate of candidates) {
      const clientUses = (() => {
        try {
          checkKdfParams(candidate);
          return true;
        } catch {
          return false;
        }
      })();
      expect(kdfParamsSchema.safeParse(candidate).success, JSON.stringify(candidate)).toBe(clientUses);
    }
  });

  it('names the parameter it refuses', () => {
    const result = createUserRequestSchema.safeParse(signUp({ kdf: params({ iterations: 1 }) }));
    expect(firstIssue(result)?.path).toEqual(['kdf', 'iterations']);
  });
});

describe('sign-in and verification bodies', () => {
  it('login takes a username and an authKey, never a master password', () => {
    expect(loginRequestSchema.parse({ username: 'alice', password: AUTH_KEY })).toEqual({
      username: 'alice',
      password: AUTH_KEY,
    });
    expect(firstIssue(loginRequestSchema.safeParse({ username: 'alice', password: 'hunter2' }))?.path).toEqual(['password']);
  });

  it('send-code needs the address and the name', () => {
    expect(firstIssue(sendCodeRequestSchema.safeParse({ email: 'alice@example.com' }))?.path).toEqual(['username']);
  });

  it('verify-code takes a 6-character code, trimmed', () => {
    const body = { email: 'alice@example.com', username: 'alice' };
    expect(verifyCodeRequestSchema.parse({ ...body, code: ' AB12CD ' }).code).toBe('AB12CD');
    expect(firstIssue(verifyCodeRequestSchema.safeParse({ ...body, code: 'AB12C' }))).toMatchObject({
      path: ['code'],
      message: 'must be 6 characters',
    });
  });
});

describe('changePasswordRequestSchema', () => {
  const change = (overrides: Record<string, unknown> = {}) => ({
    oldPassword: AUTH_KEY,
    newPassword: OTHER_AUTH_KEY,
    kdf: { ...DEFAULT_KDF_PARAMS },
    salt: randomSalt(),
    protectedKey: PROTECTED_KEY,
    keyGeneration: 1,
    ...overrides,
  });

  it('takes both authKeys and the re-wrapped vault key in one body', () => {
    const body = change();
    expect(changePasswordRequestSchema.parse(body)).toEqual(body);
  });

  it('requires the key generation of the new wrap: a whole number of at least 1', () => {
    for (const keyGeneration of [undefined, 0, -1, 1.5, '2']) {
      expect(changePasswordRequestSchema.safeParse(change({ keyGeneration })).success).toBe(false);
    }
  });

  it('refuses a change that leaves out any of the new key material', () => {
    for (const field of ['kdf', 'salt', 'protectedKey', 'newPassword', 'oldPassword']) {
      const body: Record<string, unknown> = change();
      delete body[field];
      expect(firstIssue(changePasswordRequestSchema.safeParse(body))?.path, field).toEqual([field]);
    }
  });
});
