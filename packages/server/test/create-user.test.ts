import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { createBody, newAccount } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();

describe('POST /api/users/create', () => {
  it('creates an unverified account and answers with its username and email', async () => {
    const account = await newAccount();
    const response = await h.client().post(apiPaths.createUser, createBody(account));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      message: 'Account created. Check your email for the verification code.',
      data: { username: account.username, email: account.email },
    });
    const row = await h.db.selectFrom('users').selectAll().where('username', '=', account.username).executeTakeFirstOrThrow();
    expect(row.verified_at).toBeNull();
    expect(row.auth_hash).toMatch(/^\$argon2id\$v=19\$/);
    expect(row.auth_hash).toContain('m=19456');
    expect(row.auth_hash).toMatch(/[$,]t=2[$,]/);
    expect(row.auth_hash).toMatch(/[$,]p=1[$,]/);
    expect(row.auth_hash).not.toContain(account.keys.authKey);
    expect(row.protected_key).toBe(account.protectedKey);
    expect(row.salt).toBe(account.salt);
    expect([row.kdf_algorithm, row.kdf_memory_kib, row.kdf_iterations, row.kdf_parallelism]).toEqual(['argon2id', 65536, 3, 1]);
  });

  it('does not send a code by itself (the client calls send-code)', async () => {
    const account = await newAccount();
    await h.client().post(apiPaths.createUser, createBody(account));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(h.sink.mailsTo(account.email)).toHaveLength(0);
  });

  it('refuses a username taken in any case or width', async () => {
    const first = await newAccount({ username: 'Dana_1' });
    expect((await h.client().post(apiPaths.createUser, createBody(first))).statusCode).toBe(201);
    for (const username of ['dana_1', 'DANA_1', 'Ｄａｎａ_1']) {
      const second = await newAccount({ username, email: `${Math.random().toString(36).slice(2)}@example.test` });
      const response = await h.client().post(apiPaths.createUser, createBody(second));
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message: 'That username is already taken.' });
    }
  });

  it('makes no second account for an email already used, whatever its case, and does not say so', async () => {
    const first = await newAccount({ email: 'Same.Person@Example.test' });
    expect((await h.client().post(apiPaths.createUser, createBody(first))).statusCode).toBe(201);
    const second = await newAccount({ email: 'same.person@example.TEST' });
    const response = await h.client().post(apiPaths.createUser, createBody(second));
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toEqual({ username: second.username, email: second.email });
    const rows = await h.db
      .selectFrom('users')
      .select('username')
      .where('email_folded', '=', 'same.person@example.test')
      .execute();
    expect(rows).toEqual([{ username: first.username }]);
  });

  it('names the field and the problem for bad input', async () => {
    const account = await newAccount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ username: 'ab' }, 'username must be at least 3 characters'],
      [{ username: 'a'.repeat(33) }, 'username must be at most 32 characters'],
      [{ username: 'has space' }, 'username may contain only letters, digits, dots, dashes and underscores'],
      [{ email: 'not-an-email' }, 'email must be an email address'],
      [{ fullname: '' }, 'fullname is required'],
      [{ fullname: undefined }, 'fullname is required'],
      [{ password: 'hunter2' }, 'password must be 32 bytes of base64url'],
      [{ salt: 'short' }, 'salt must be 16 bytes of base64url'],
      [{ protectedKey: 'plain text key' }, 'protectedKey must be a Lockit ciphertext (v1.<iv>.<data>), never plaintext'],
      [{ kdf: { ...account.kdf, memoryKiB: 1024 } }, 'kdf.memoryKiB must be at least 65536'],
      [{ kdf: { ...account.kdf, iterations: 1.5 } }, 'kdf.iterations must be a whole number'],
      [{ kdf: { ...account.kdf, algorithm: 'pbkdf2' } }, 'kdf.algorithm must be "argon2id"'],
      [{ kdf: 'fast' }, 'kdf must be an object'],
    ];
    for (const [patch, message] of cases) {
      const response = await h.client().post(apiPaths.createUser, { ...createBody(account), ...patch });
      expect(response.statusCode, JSON.stringify(patch)).toBe(400);
      expect(response.json()).toEqual({ message });
    }
  });

  it('strips unknown fields instead of storing them', async () => {
    const account = await newAccount();
    const response = await h.client().post(apiPaths.createUser, { ...createBody(account), isAdmin: true, verified_at: 1 });
    expect(response.statusCode).toBe(201);
    const row = await h.db.selectFrom('users').selectAll().where('username', '=', account.username).executeTakeFirstOrThrow();
    expect(row.verified_at).toBeNull();
    expect(row).not.toHaveProperty('isAdmin');
  });
});
