import { describe, expect, it } from 'vitest';
import { apiPaths, createInviteResponseSchema, listInvitesResponseSchema } from '@lockit/contract';
import { createBody, newAccount, signedInUser } from './helpers/accounts';
import { operatorInvite, signUpWithInvite, tokenOf } from './helpers/invites';
import { useTestApp, type TestHarness } from './helpers/test-app';
import { MAX_OPEN_INVITES_PER_USER } from '../src/identity/invites';
import { createSmtpMailer } from '../src/mail/smtp-mailer';

/** Invitations on the API (decision 0044): made, listed and revoked by signed-in users. */
const DAY = 24 * 60 * 60 * 1000;
const inviteMode = {
  config: { signup: { mode: 'invite' as const, allowedEmailDomains: ['example.test'], inviteLifetimeMs: 3 * DAY } },
  // Sessions outlive the invitations, so a test can move the clock past an expiry and still ask.
  timing: { accessTokenLifetimeMs: 30 * DAY, refreshTokenIdleMs: 30 * DAY, sessionAbsoluteMs: 60 * DAY },
};

/** A signed-in member of an invite-only server: let in by the operator's invitation. */
async function member(h: TestHarness) {
  const account = await newAccount();
  const client = h.client();
  await signUpWithInvite(h, client, account, (await operatorInvite(h)).url);
  expect((await client.post(apiPaths.login, { username: account.username, password: account.keys.authKey })).statusCode).toBe(
    200,
  );
  return { account, client };
}

describe('invitations in invite mode', () => {
  const h = useTestApp(inviteMode);

  it('makes a link to copy, valid for INVITE_LIFETIME_DAYS, and stores only a hash of its token', async () => {
    const { client } = await member(h);
    const before = h.clock.now();
    const response = await client.post(apiPaths.invites, {});
    expect(response.statusCode).toBe(201);
    expect(response.json().message).toBe('Invitation created');
    const invite = createInviteResponseSchema.parse(response.json()).data;
    expect(invite.url).toMatch(/^http:\/\/localhost(:\d+)?\/signup\?invite=[A-Za-z0-9_-]{43}$/);
    expect(invite).toMatchObject({ email: null, mailed: false });
    const lifetime = Date.parse(invite.expiresAt) - Date.parse(invite.createdAt);
    expect(lifetime).toBe(3 * DAY);
    expect(Date.parse(invite.createdAt)).toBeGreaterThanOrEqual(before - 1000);

    const row = await h.db.selectFrom('invites').selectAll().where('id', '=', invite.id).executeTakeFirstOrThrow();
    const token = tokenOf(invite.url);
    expect(Object.values(row).some((value) => String(value).includes(token))).toBe(false);
    expect(row.token_hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('mails the link when an address is given and SMTP is configured, and the link signs that person up', async () => {
    const { client } = await member(h);
    const friend = await newAccount();
    const response = await client.post(apiPaths.invites, { email: friend.email });
    expect(response.statusCode).toBe(201);
    const invite = createInviteResponseSchema.parse(response.json()).data;
    expect(invite).toMatchObject({ email: friend.email, mailed: true });
    const mail = await h.sink.waitForMail(friend.email);
    expect(mail.subject).toBe('You are invited to Lockit');
    expect(mail.text).toContain(invite.url);
    await signUpWithInvite(h, h.client(), friend, invite.url);
  });

  it('refuses to invite an address outside the allowed domains', async () => {
    const { client } = await member(h);
    const response = await client.post(apiPaths.invites, { email: 'friend@elsewhere.example' });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Sign-up on this server is limited to e-mail addresses at example.test.');
  });

  it('lists the caller’s open invitations only, newest first, never the token', async () => {
    const alice = await member(h);
    const bob = await member(h);
    const first = createInviteResponseSchema.parse((await alice.client.post(apiPaths.invites, {})).json()).data;
    h.clock.advance(1000);
    const second = createInviteResponseSchema.parse(
      (await alice.client.post(apiPaths.invites, { email: 'x@example.test' })).json(),
    ).data;
    await bob.client.post(apiPaths.invites, {});
    const used = createInviteResponseSchema.parse((await alice.client.post(apiPaths.invites, {})).json()).data;
    await signUpWithInvite(h, h.client(), await newAccount(), used.url);

    const listed = await alice.client.get(apiPaths.invites);
    expect(listed.statusCode).toBe(200);
    const data = listInvitesResponseSchema.parse(listed.json()).data;
    expect(data.map((invite) => invite.id)).toEqual([second.id, first.id]);
    expect(data[0]).toEqual({ id: second.id, email: 'x@example.test', createdAt: second.createdAt, expiresAt: second.expiresAt });
    expect(listed.body).not.toContain(tokenOf(first.url));

    h.clock.advance(3 * DAY);
    expect((await alice.client.get(apiPaths.invites)).json().data).toEqual([]);
  });

  it('revokes an invitation: its link stops working; another user’s or a used one is 404', async () => {
    const alice = await member(h);
    const bob = await member(h);
    const invite = createInviteResponseSchema.parse((await alice.client.post(apiPaths.invites, {})).json()).data;
    const byBob = await bob.client.delete(apiPaths.invite(invite.id));
    expect(byBob.statusCode).toBe(404);
    expect(byBob.json()).toEqual({ message: 'No open invitation with that id.' });

    const revoked = await alice.client.delete(apiPaths.invite(invite.id.toUpperCase()));
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ message: 'Invitation revoked' });
    const signUp = await h.client().post(apiPaths.createUser, { ...createBody(await newAccount()), invite: tokenOf(invite.url) });
    expect(signUp.statusCode).toBe(403);
    expect(signUp.json().message).toMatch(/not valid/);
    expect((await alice.client.delete(apiPaths.invite(invite.id))).statusCode).toBe(404);

    const used = createInviteResponseSchema.parse((await alice.client.post(apiPaths.invites, {})).json()).data;
    await signUpWithInvite(h, h.client(), await newAccount(), used.url);
    expect((await alice.client.delete(apiPaths.invite(used.id))).statusCode).toBe(404);
  });

  it(`caps a user at ${MAX_OPEN_INVITES_PER_USER} open invitations`, async () => {
    const { client } = await member(h);
    for (let i = 0; i < MAX_OPEN_INVITES_PER_USER; i++) expect((await client.post(apiPaths.invites, {})).statusCode).toBe(201);
    const refused = await client.post(apiPaths.invites, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/too many open invitations/);
  });

  it('needs a session', async () => {
    expect((await h.client().post(apiPaths.invites, {})).statusCode).toBe(401);
    expect((await h.client().get(apiPaths.invites)).statusCode).toBe(401);
  });

  it('goes with its maker: deleting the account deletes their open invitations', async () => {
    const { client } = await member(h);
    const invite = createInviteResponseSchema.parse((await client.post(apiPaths.invites, {})).json()).data;
    expect((await client.delete(apiPaths.deleteAccount)).statusCode).toBe(200);
    expect(await h.db.selectFrom('invites').select('id').where('id', '=', invite.id).execute()).toEqual([]);
  });
});

describe('an invitation whose mail cannot be sent', () => {
  // Mail goes to a port where nothing listens: every send fails at once.
  const h = useTestApp({ ...inviteMode, deps: { mailer: createSmtpMailer('smtp://127.0.0.1:9', 'Lockit <x@lockit.test>', 10) } });

  it('is still made, its link shown, and the answer says the mail did not go', async () => {
    const account = await newAccount();
    const client = h.client();
    const invite = await operatorInvite(h);
    expect((await client.post(apiPaths.createUser, { ...createBody(account), invite: tokenOf(invite.url) })).statusCode).toBe(
      201,
    );
    await h.db.updateTable('users').set({ verified_at: h.clock.now() }).where('username', '=', account.username).execute();
    expect((await client.post(apiPaths.login, { username: account.username, password: account.keys.authKey })).statusCode).toBe(
      200,
    );

    const response = await client.post(apiPaths.invites, { email: 'friend@example.test' });
    expect(response.statusCode).toBe(201);
    expect(response.json().message).toBe(
      'Invitation created, but the mail could not be sent. Copy the link and send it yourself.',
    );
    const created = createInviteResponseSchema.parse(response.json()).data;
    expect(created).toMatchObject({ email: 'friend@example.test', mailed: false });
    expect(listInvitesResponseSchema.parse((await client.get(apiPaths.invites)).json()).data.map((i) => i.id)).toEqual([
      created.id,
    ]);
  });
});

for (const mode of ['open', 'closed'] as const) {
  describe(`invitations in ${mode} mode`, () => {
    const h = useTestApp({ config: { signup: { mode, allowedEmailDomains: [], inviteLifetimeMs: DAY } } });

    it('refuses to make one, saying sign-up is not by invitation; nothing is stored', async () => {
      const { client } = await signedInUserIn(h, mode);
      const response = await client.post(apiPaths.invites, { email: 'friend@example.test' });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: 'Invitations are not used on this server: its sign-up is not by invitation.' });
      expect(await h.db.selectFrom('invites').select('id').execute()).toEqual([]);
      expect(h.sink.mailsTo('friend@example.test')).toEqual([]);
      expect((await client.get(apiPaths.invites)).json().data).toEqual([]);
    });
  });
}

/**
 * A signed-in user. In closed mode nobody can sign up, so the test opens the running app's
 * sign-up for that one account (the app reads its config on each request) and closes it again.
 */
async function signedInUserIn(h: TestHarness, mode: 'open' | 'closed') {
  if (mode === 'open') return signedInUser(h);
  h.config.signup.mode = 'open';
  try {
    return await signedInUser(h);
  } finally {
    h.config.signup.mode = mode;
  }
}
