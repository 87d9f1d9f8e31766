import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { DEFAULT_UNVERIFIED_ACCOUNT_HOURS } from '../src/config/config-schema';
import { createBody, login, newAccount, requestCode, signUpAndVerify, uniqueName } from './helpers/accounts';
import { MESSAGES } from '../src/routes/messages';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();
const LIFETIME_MS = DEFAULT_UNVERIFIED_ACCOUNT_HOURS * 60 * 60 * 1000;

async function userIds(username: string, email: string) {
  const rows = await h.db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb.or([eb('username', '=', username), eb('email', '=', email)]))
    .execute();
  return rows.map((row) => row.id);
}

describe('sign-up over an unverified account', () => {
  it('is refused while the account is within its lifetime', async () => {
    const squatter = await newAccount();
    expect((await h.client().post(apiPaths.createUser, createBody(squatter))).statusCode).toBe(201);
    h.clock.advance(LIFETIME_MS - 60_000);
    const sameName = await newAccount({ username: squatter.username });
    const byName = await h.client().post(apiPaths.createUser, createBody(sameName));
    expect(byName.statusCode).toBe(409);
    expect(byName.json().message).toBe(MESSAGES.usernameTaken);
    // A taken e-mail answers like a new sign-up (enumeration.test.ts) but takes nothing.
    const [squatterId] = await userIds(squatter.username, squatter.email);
    const sameEmail = await newAccount({ email: squatter.email });
    const byEmail = await h.client().post(apiPaths.createUser, createBody(sameEmail));
    expect(byEmail.statusCode).toBe(201);
    expect(await userIds(sameEmail.username, sameEmail.email)).toEqual([squatterId]);
  });

  it('takes its name and e-mail once it is past its lifetime, without waiting for the cleanup job', async () => {
    const squatter = await newAccount();
    expect((await h.client().post(apiPaths.createUser, createBody(squatter))).statusCode).toBe(201);
    const [squatterId] = await userIds(squatter.username, squatter.email);
    h.clock.advance(LIFETIME_MS + 60_000);

    const owner = await newAccount({ username: squatter.username, email: squatter.email, password: 'the owner of this address' });
    const client = h.client();
    expect((await client.post(apiPaths.createUser, createBody(owner))).statusCode).toBe(201);
    const ids = await userIds(owner.username, owner.email);
    expect(ids).toHaveLength(1);
    expect(ids[0]).not.toBe(squatterId);
    // The new account verifies with its own code and signs in with its own key.
    const code = await requestCode(h, client, owner);
    expect((await client.post(apiPaths.verifyCode, { email: owner.email, username: owner.username, code })).statusCode).toBe(200);
    expect((await login(h.client(), owner)).statusCode).toBe(200);
    expect((await login(h.client(), squatter)).statusCode).toBe(401);
  });

  it('frees a name held by one expired account and an e-mail held by another, in the same sign-up', async () => {
    const nameHolder = await newAccount();
    const emailHolder = await newAccount();
    for (const account of [nameHolder, emailHolder])
      expect((await h.client().post(apiPaths.createUser, createBody(account))).statusCode).toBe(201);
    h.clock.advance(LIFETIME_MS + 60_000);
    const owner = await newAccount({ username: nameHolder.username, email: emailHolder.email });
    expect((await h.client().post(apiPaths.createUser, createBody(owner))).statusCode).toBe(201);
    expect(await userIds(nameHolder.username, nameHolder.email)).toHaveLength(1);
    expect(await userIds(emailHolder.username, emailHolder.email)).toHaveLength(1);
  });

  it('never takes a verified account, however old', async () => {
    const holder = await newAccount();
    await signUpAndVerify(h, h.client(), holder);
    h.clock.advance(LIFETIME_MS * 10);
    const byName = await h.client().post(apiPaths.createUser, createBody(await newAccount({ username: holder.username })));
    expect(byName.statusCode).toBe(409);
    const byEmail = await h
      .client()
      .post(apiPaths.createUser, createBody(await newAccount({ username: uniqueName('other'), email: holder.email })));
    expect(byEmail.statusCode).toBe(201);
    expect(await userIds(holder.username, holder.email)).toHaveLength(1);
    expect((await login(h.client(), holder)).statusCode).toBe(200);
  });
});
