import { describe, expect, it } from 'vitest';
import { apiPaths, publicConfigResponseSchema } from '@lockit/contract';
import { createBody, newAccount, signedInUser } from './helpers/accounts';
import { operatorInvite, signUpWithInvite, tokenOf } from './helpers/invites';
import { useTestApp, type TestHarness } from './helpers/test-app';

/** Who may sign up (SIGNUP_MODE, SIGNUP_ALLOWED_DOMAINS; decision 0044), on the API. */
const DAY = 24 * 60 * 60 * 1000;
const signup = (mode: 'open' | 'invite' | 'closed', allowedEmailDomains: string[] = []) => ({
  config: { signup: { mode, allowedEmailDomains, inviteLifetimeMs: 7 * DAY } },
});

async function usersNamed(h: TestHarness, username: string) {
  return h.db.selectFrom('users').select('id').where('username', '=', username).execute();
}

describe('open mode (the default)', () => {
  const h = useTestApp();

  it('lets anyone sign up and says so in the public config', async () => {
    await signedInUser(h);
    const config = publicConfigResponseSchema.parse((await h.client().get(apiPaths.publicConfig)).json()).data;
    expect(config).toMatchObject({ signupMode: 'open', allowedEmailDomains: [] });
  });

  it('ignores an invitation token it does not need', async () => {
    const account = await newAccount();
    const response = await h.client().post(apiPaths.createUser, { ...createBody(account), invite: 'A'.repeat(43) });
    expect(response.statusCode).toBe(201);
  });
});

describe('closed mode', () => {
  const h = useTestApp(signup('closed'));

  it('refuses every sign-up with 403 and a message that says what to do; nothing is stored', async () => {
    const account = await newAccount();
    const response = await h.client().post(apiPaths.createUser, createBody(account));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: 'Sign-up is closed on this server. Ask its operator for an account.' });
    expect(await usersNamed(h, account.username)).toEqual([]);
  });

  it('refuses even with a valid invitation (the operator closed sign-up after making it)', async () => {
    const invite = await operatorInvite(h);
    const response = await h
      .client()
      .post(apiPaths.createUser, { ...createBody(await newAccount()), invite: tokenOf(invite.url) });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/^Sign-up is closed/);
  });

  it('refuses before looking at names: a taken name still gets the closed answer, not 409', async () => {
    await h.db
      .insertInto('users')
      .values({
        id: crypto.randomUUID(),
        username: 'already_here',
        username_folded: 'already_here',
        email: 'here@example.test',
        email_folded: 'here@example.test',
        fullname: 'Here',
        auth_hash: 'x',
        kdf_algorithm: 'argon2id',
        kdf_memory_kib: 19456,
        kdf_iterations: 2,
        kdf_parallelism: 1,
        salt: 'x',
        protected_key: 'x',
        verified_at: 1,
        created_at: 1,
        updated_at: 1,
      } as never)
      .execute();
    const response = await h.client().post(apiPaths.createUser, createBody(await newAccount({ username: 'already_here' })));
    expect(response.statusCode).toBe(403);
  });

  it('tells the browser the mode', async () => {
    const config = publicConfigResponseSchema.parse((await h.client().get(apiPaths.publicConfig)).json()).data;
    expect(config.signupMode).toBe('closed');
  });
});

describe('invite mode', () => {
  const h = useTestApp(signup('invite'));

  it('refuses a sign-up without an invitation, saying it is by invitation', async () => {
    const account = await newAccount();
    const response = await h.client().post(apiPaths.createUser, createBody(account));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      message: 'Sign-up on this server is by invitation only. Open the invitation link you were sent.',
    });
    expect(await usersNamed(h, account.username)).toEqual([]);
  });

  it('refuses a token no invitation has', async () => {
    const response = await h.client().post(apiPaths.createUser, { ...createBody(await newAccount()), invite: 'B'.repeat(43) });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('This invitation link is not valid. Check the link or ask for a new one.');
  });

  it('accepts a valid invitation once: the second sign-up with it is told it was used', async () => {
    const invite = await operatorInvite(h);
    const first = await newAccount();
    await signUpWithInvite(h, h.client(), first, invite.url);
    const row = await h.db.selectFrom('invites').selectAll().where('id', '=', invite.id).executeTakeFirstOrThrow();
    const [user] = await usersNamed(h, first.username);
    expect(row.used_by).toBe(user!.id);
    expect(row.used_at).not.toBeNull();

    const second = await newAccount();
    const again = await h.client().post(apiPaths.createUser, { ...createBody(second), invite: tokenOf(invite.url) });
    expect(again.statusCode).toBe(403);
    expect(again.json().message).toBe('This invitation has already been used. Ask for a new one.');
    expect(await usersNamed(h, second.username)).toEqual([]);
  });

  it('refuses an expired invitation', async () => {
    const invite = await operatorInvite(h);
    h.clock.advance(7 * DAY + 1000);
    const response = await h
      .client()
      .post(apiPaths.createUser, { ...createBody(await newAccount()), invite: tokenOf(invite.url) });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('This invitation has expired. Ask for a new one.');
  });

  it('holds an invitation that names an address to that address, in any case', async () => {
    const invite = await operatorInvite(h, 'Invited.Person@Example.test');
    const other = await h.client().post(apiPaths.createUser, {
      ...createBody(await newAccount({ email: 'someone.else@example.test' })),
      invite: tokenOf(invite.url),
    });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe('This invitation is for another e-mail address. Sign up with the address it was sent to.');
    const right = await h.client().post(apiPaths.createUser, {
      ...createBody(await newAccount({ email: 'invited.person@example.TEST' })),
      invite: tokenOf(invite.url),
    });
    expect(right.statusCode).toBe(201);
  });

  it('lets exactly one of two simultaneous sign-ups use one invitation', async () => {
    const invite = await operatorInvite(h);
    const [a, b] = [await newAccount(), await newAccount()];
    const answers = await Promise.all(
      [a, b].map((account) => h.client().post(apiPaths.createUser, { ...createBody(account), invite: tokenOf(invite.url) })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 403]);
    expect(answers.find((answer) => answer.statusCode === 403)!.json().message).toMatch(/already been used/);
    const created = [...(await usersNamed(h, a.username)), ...(await usersNamed(h, b.username))];
    expect(created).toHaveLength(1);
    const row = await h.db.selectFrom('invites').selectAll().where('id', '=', invite.id).executeTakeFirstOrThrow();
    expect(row.used_by).toBe(created[0]!.id);
  });

  it('tells the browser the mode', async () => {
    const config = publicConfigResponseSchema.parse((await h.client().get(apiPaths.publicConfig)).json()).data;
    expect(config.signupMode).toBe('invite');
  });
});

describe('allowed e-mail domains', () => {
  const h = useTestApp(signup('open', ['example.test', 'corp.example']));

  it('refuses an address at another domain with a message naming the allowed ones', async () => {
    const account = await newAccount({ email: 'person@elsewhere.example' });
    const response = await h.client().post(apiPaths.createUser, createBody(account));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      message: 'Sign-up on this server is limited to e-mail addresses at example.test or corp.example.',
    });
    expect(await usersNamed(h, account.username)).toEqual([]);
  });

  it('refuses a subdomain or a look-alike: the domain must match exactly', async () => {
    for (const email of ['a@sub.example.test', 'a@example.test.evil.example', 'a@corp.example.org']) {
      const response = await h.client().post(apiPaths.createUser, createBody(await newAccount({ email })));
      expect(response.statusCode, email).toBe(403);
    }
  });

  it('accepts an allowed domain in any case', async () => {
    const response = await h
      .client()
      .post(apiPaths.createUser, createBody(await newAccount({ email: `x${Date.now()}@Corp.Example` })));
    expect(response.statusCode).toBe(201);
  });

  it('tells the browser the domains', async () => {
    const config = publicConfigResponseSchema.parse((await h.client().get(apiPaths.publicConfig)).json()).data;
    expect(config.allowedEmailDomains).toEqual(['example.test', 'corp.example']);
  });
});
