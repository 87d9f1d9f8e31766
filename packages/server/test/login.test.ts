import { describe, expect, it } from 'vitest';
import { apiPaths, loginResponseSchema } from '@lockit/contract';
import { unwrapVaultKey } from '@lockit/crypto';
import { login, newAccount, signUpAndVerify } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();
const INVALID = { message: 'Invalid username or password.' };

async function verifiedAccount() {
  const account = await newAccount();
  await signUpAndVerify(h, h.client(), account);
  return account;
}

describe('POST /api/users/login', () => {
  it('signs in with the authKey and answers username, email and the wrapped vault key', async () => {
    const account = await verifiedAccount();
    const client = h.client();
    const response = await login(client, account);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: 'Login successful',
      data: {
        username: account.username,
        email: account.email,
        protectedKey: account.protectedKey,
        keyGeneration: 0,
        keyEpoch: 0,
        // The account id, which its passkeys carry as their user handle.
        userId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    });
    expect(loginResponseSchema.parse(response.json())).toBeTruthy();
    const vaultKey = await unwrapVaultKey(response.json().data.protectedKey, account.keys.wrapKey, account.kdf, account.salt);
    expect(vaultKey).toEqual(account.vaultKeyBytes);
  });

  it('sets HttpOnly, SameSite=Strict session cookies and never puts a token in the body', async () => {
    const account = await verifiedAccount();
    const client = h.client();
    const response = await login(client, account);
    const cookies = response.cookies as Array<Record<string, unknown>>;
    const access = cookies.find((cookie) => cookie.name === 'lockit_access')!;
    const refresh = cookies.find((cookie) => cookie.name === 'lockit_refresh')!;
    for (const cookie of [access, refresh]) {
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
      expect(String(cookie.value)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(response.body).not.toContain(String(cookie.value));
    }
    expect(access.maxAge).toBe(15 * 60);
    expect(refresh.maxAge).toBe(14 * 24 * 60 * 60);
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(200);
  });

  it('accepts the username in another case', async () => {
    const account = await verifiedAccount();
    const response = await h
      .client()
      .post(apiPaths.login, { username: account.username.toUpperCase(), password: account.keys.authKey });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a wrong authKey and an unknown name with the same answer', async () => {
    const account = await verifiedAccount();
    const other = await newAccount({ password: 'someone else entirely' });
    const wrongKey = await h.client().post(apiPaths.login, { username: account.username, password: other.keys.authKey });
    const unknown = await h.client().post(apiPaths.login, { username: 'nobody_at_all', password: account.keys.authKey });
    for (const response of [wrongKey, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(INVALID);
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });

  it('spends Argon2 work on an unknown name too (no fast path that reveals existence)', async () => {
    const account = await verifiedAccount();
    const time = async (username: string) => {
      const start = performance.now();
      await h.client().post(apiPaths.login, { username, password: 'A'.repeat(43) });
      return performance.now() - start;
    };
    await time('warm_up_name');
    // The fastest of several tries of each: on a loaded machine any single try can stall.
    const fastest = async (names: string[]) => {
      const times: number[] = [];
      for (const name of names) times.push(await time(name));
      return Math.min(...times);
    };
    const unknown = await fastest(['ghost_one', 'ghost_two', 'ghost_three', 'ghost_four']);
    const known = await fastest(Array.from({ length: 4 }, () => account.username));
    expect(unknown).toBeGreaterThan(known * 0.4);
  });

  it('refuses the raw master password in place of the authKey', async () => {
    const account = await verifiedAccount();
    const response = await h.client().post(apiPaths.login, { username: account.username, password: account.password });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'password must be 32 bytes of base64url' });
  });

  it('names the missing field', async () => {
    const response = await h.client().post(apiPaths.login, { username: 'someone' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'password is required' });
  });
});
