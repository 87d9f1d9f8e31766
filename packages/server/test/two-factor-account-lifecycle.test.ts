import { describe, expect, it } from 'vitest';
import argon2 from 'argon2';
import { adminPaths, apiPaths } from '@lockit/contract';
import { makeKeyMaterial, signedInUser, type TestAccount } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';
import { enableTotp, passwordStep, secondFactor, totpCodeAt } from './helpers/two-factor';

const TOKEN = 'the-operators-admin-token-0123456789';
const TOKEN_HASH = await argon2.hash(TOKEN, { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });
const h = useTestApp({ config: { adminTokenHash: TOKEN_HASH } });

async function userIdOf(account: TestAccount): Promise<string> {
  const row = await h.db.selectFrom('users').select('id').where('username', '=', account.username).executeTakeFirstOrThrow();
  return row.id;
}

/** A security key row as S2's registration stores it: enough for "has a security key". */
async function addSecurityKey(userId: string): Promise<void> {
  await h.db
    .insertInto('webauthn_credentials')
    .values({
      id: crypto.randomUUID(),
      user_id: userId,
      credential_id: crypto.randomUUID(),
      public_key: 'pk',
      counter: 0,
      transports: null,
      name: 'YubiKey',
      device_type: 'singleDevice',
      backed_up: 0,
      unlock_key: null,
      unlock_salt: null,
      signs_in: 0,
      created_at: h.clock.now(),
      last_used_at: null,
    })
    .execute();
}

describe('admin users list', () => {
  it('names each account’s second factors: none, authenticator app, security key, both', async () => {
    const none = await signedInUser(h);
    const app = await signedInUser(h);
    await enableTotp(h, app.client, app.account);
    const key = await signedInUser(h);
    await addSecurityKey(await userIdOf(key.account));
    const both = await signedInUser(h);
    await enableTotp(h, both.client, both.account);
    await addSecurityKey(await userIdOf(both.account));

    const admin = h.client();
    expect((await admin.post(adminPaths.signIn, { token: TOKEN })).statusCode).toBe(200);
    const response = await admin.get(adminPaths.users);
    expect(response.statusCode).toBe(200);
    const users = response.json().data.users as { username: string; twoFactor: string }[];
    const factorOf = (account: TestAccount) => users.find((u) => u.username === account.username)?.twoFactor;
    expect(factorOf(none.account)).toBe('none');
    expect(factorOf(app.account)).toBe('totp');
    expect(factorOf(key.account)).toBe('webauthn');
    expect(factorOf(both.account)).toBe('both');
    expect(response.body).not.toMatch(/totp_secret|v1\./);
  });
});

describe('account deletion', () => {
  it('removes the account’s recovery codes, pending sign-ins and security keys with it', async () => {
    const { account, client } = await signedInUser(h);
    await enableTotp(h, client, account);
    const id = await userIdOf(account);
    await addSecurityKey(id);
    await passwordStep(h.client(), account);
    const rows = async () => ({
      codes: (await h.db.selectFrom('recovery_codes').select('id').where('user_id', '=', id).execute()).length,
      pending: (await h.db.selectFrom('pending_sign_ins').select('id').where('user_id', '=', id).execute()).length,
      keys: (await h.db.selectFrom('webauthn_credentials').select('id').where('user_id', '=', id).execute()).length,
    });
    expect(await rows()).toEqual({ codes: 10, pending: 1, keys: 1 });
    expect((await client.delete(apiPaths.deleteAccount)).statusCode).toBe(200);
    expect(await rows()).toEqual({ codes: 0, pending: 0, keys: 0 });
  });
});

describe('pending sign-ins', () => {
  it('are swept per account once expired, so abandoned ones never pile up', async () => {
    const { account, client } = await signedInUser(h);
    await enableTotp(h, client, account);
    const id = await userIdOf(account);
    await passwordStep(h.client(), account);
    await passwordStep(h.client(), account);
    h.clock.advance(5 * 60_000 + 1_000);
    await passwordStep(h.client(), account);
    const rows = await h.db.selectFrom('pending_sign_ins').select('id').where('user_id', '=', id).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('password change', () => {
  it('forgets remembered browsers: the new password still needs the second step there', async () => {
    const { account, client } = await signedInUser(h);
    const { secret } = await enableTotp(h, client, account);
    const browser = h.client();
    const token = await passwordStep(browser, account);
    expect(
      (await secondFactor(browser, { token, method: 'totp', code: totpCodeAt(secret, h.clock.now()), remember: true }))
        .statusCode,
    ).toBe(200);

    const next = await makeKeyMaterial('a brand new master password', account.vaultKeyBytes);
    const changed = await client.put(apiPaths.changePassword, {
      oldPassword: account.keys.authKey,
      newPassword: next.keys.authKey,
      kdf: next.kdf,
      salt: next.salt,
      protectedKey: next.protectedKey,
      keyGeneration: 1,
    });
    expect(changed.statusCode).toBe(200);
    await passwordStep(browser, { ...account, keys: next.keys });
  });
});
