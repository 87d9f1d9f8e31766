import { describe, expect, it } from 'vitest';
import { apiPaths, preloginResponseSchema, saltSchema } from '@lockit/contract';
import { checkKdfParams, DEFAULT_KDF_PARAMS } from '@lockit/crypto';
import { createBody, newAccount, signedInUser } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();

async function prelogin(username: string) {
  const response = await h.client().post(apiPaths.prelogin, { username });
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** The structure of a JSON value: keys in order and the types of the leaves. */
function shapeOf(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return typeof value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shapeOf(inner)]));
}

describe('POST /api/users/prelogin', () => {
  it('returns the KDF parameters and salt of an account', async () => {
    const { account } = await signedInUser(h);
    const body = await prelogin(account.username);
    expect(body).toEqual({ message: 'OK', data: { kdf: account.kdf, salt: account.salt, keyGeneration: 0 } });
    expect(preloginResponseSchema.parse(body)).toBeTruthy();
  });

  it('finds the account whatever the case of the name', async () => {
    const { account } = await signedInUser(h);
    expect((await prelogin(account.username.toUpperCase())).data.salt).toBe(account.salt);
  });

  it('answers an unverified account too (it must be able to reach the verify step)', async () => {
    const account = await newAccount();
    await h.client().post(apiPaths.createUser, createBody(account));
    expect((await prelogin(account.username)).data.salt).toBe(account.salt);
  });

  it('answers an unknown name with default parameters and a stable, name-bound salt', async () => {
    const first = await prelogin('no_such_person');
    const second = await prelogin('no_such_person');
    expect(second).toEqual(first);
    expect(first.message).toBe('OK');
    expect(first.data.kdf).toEqual({ ...DEFAULT_KDF_PARAMS });
    expect(saltSchema.safeParse(first.data.salt).success).toBe(true);
    expect(checkKdfParams(first.data.kdf)).toEqual(first.data.kdf);
    expect((await prelogin('No_Such_Person')).data.salt).toBe(first.data.salt);
    expect((await prelogin('another_ghost')).data.salt).not.toBe(first.data.salt);
  });

  it("answers unknown names a stable key generation spread like real accounts' (mostly 1, the first, some higher)", async () => {
    const names = Array.from({ length: 40 }, (_, i) => `ghost_${i}`);
    const generations = await Promise.all(names.map(async (name) => (await prelogin(name)).data.keyGeneration as number));
    expect(await Promise.all(names.map(async (name) => (await prelogin(name)).data.keyGeneration))).toEqual(generations);
    expect(generations.every((g) => Number.isSafeInteger(g) && g >= 1 && g <= 9)).toBe(true);
    expect(generations.filter((g) => g === 1).length).toBeGreaterThan(5);
    expect(generations.some((g) => g > 1)).toBe(true);
  });

  it('answers the generation a sign-up stored: 1 from the web app, 0 when none was sent; refuses more', async () => {
    const [first, legacy, greedy] = await Promise.all([newAccount(), newAccount(), newAccount()]);
    expect((await h.client().post(apiPaths.createUser, { ...createBody(first), keyGeneration: 1 })).statusCode).toBe(201);
    expect((await prelogin(first.username)).data.keyGeneration).toBe(1);
    expect((await h.client().post(apiPaths.createUser, createBody(legacy))).statusCode).toBe(201);
    expect((await prelogin(legacy.username)).data.keyGeneration).toBe(0);
    // A new account's first key is generation 1 at most: a higher one would outrank the next change.
    const refused = await h.client().post(apiPaths.createUser, { ...createBody(greedy), keyGeneration: 2 });
    expect(refused.statusCode).toBe(400);
  });

  it('gives known and unknown names answers of the same shape', async () => {
    const { account } = await signedInUser(h);
    const known = await prelogin(account.username);
    const unknown = await prelogin('never_registered');
    expect(shapeOf(unknown)).toEqual(shapeOf(known));
    expect(JSON.stringify(shapeOf(unknown))).toBe(JSON.stringify(shapeOf(known)));
    expect(unknown.data.salt).toHaveLength(known.data.salt.length);
  });

  it('names the field for bad input', async () => {
    const response = await h.client().post(apiPaths.prelogin, { username: 'x' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'username must be at least 3 characters' });
  });
});
