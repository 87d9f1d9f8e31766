import { describe, expect, it } from 'vitest';
import { apiPaths, DELIVERY_TICKET_PATTERN } from '@lockit/contract';
import { createBody, login, newAccount, requestCode, type TestAccount } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();
const CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/;
const SENT = 'If that account is waiting for verification, a code is on its way.';
const TICKET = DELIVERY_TICKET_PATTERN;
const INVALID = 'That code is not valid. Check it or request a new one.';
const TOO_MANY = 'Too many wrong codes. Request a new code.';

async function createdAccount(): Promise<TestAccount> {
  const account = await newAccount();
  expect((await h.client().post(apiPaths.createUser, createBody(account))).statusCode).toBe(201);
  return account;
}

function verify(account: TestAccount, code: string) {
  return h.client().post(apiPaths.verifyCode, { email: account.email, username: account.username, code });
}

/** A code from the unambiguous alphabet that is not `code`. */
function wrongCode(code: string): string {
  return code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
}

describe('POST /api/email/send-code', () => {
  it('mails a 6-character code from the unambiguous alphabet to a pending account', async () => {
    const account = await createdAccount();
    const response = await h.client().post(apiPaths.sendCode, { email: account.email, username: account.username });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: SENT, data: { delivery: expect.stringMatching(TICKET) } });
    const mail = await h.sink.waitForMail(account.email);
    expect(mail.subject).toBe('Your Lockit verification code');
    expect(mail.from).toContain('no-reply@lockit.test');
    const code = /verification code is: (\S+)/.exec(mail.text)?.[1];
    expect(code).toMatch(CODE);
    expect(mail.html).toContain(code);
    expect(mail.text).toContain(account.username);
  });

  it('stores only a keyed hash of the code', async () => {
    const account = await createdAccount();
    const code = await requestCode(h, h.client(), account);
    const rows = await h.db.selectFrom('verification_codes').selectAll().execute();
    for (const row of rows) {
      expect(row.code_hash).not.toContain(code);
      expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('answers the same for unknown, mismatched and verified accounts, and mails nothing', async () => {
    const pending = await createdAccount();
    const verified = await createdAccount();
    const code = await requestCode(h, h.client(), verified);
    expect((await verify(verified, code)).statusCode).toBe(200);
    const before = h.sink.mails.length;
    const bodies = [
      { email: 'nobody@example.test', username: 'nobody_here' },
      { email: 'other@example.test', username: pending.username },
      { email: verified.email, username: verified.username },
    ];
    for (const body of bodies) {
      const response = await h.client().post(apiPaths.sendCode, body);
      expect(response.statusCode).toBe(200);
      // A delivery ticket of the same shape as a real send's (test/mail-delivery.test.ts).
      expect(response.json()).toEqual({ message: SENT, data: { delivery: expect.stringMatching(TICKET) } });
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(h.sink.mails.length).toBe(before);
  });

  it('refuses a second send within the 60-second cool-down, then sends a new code that replaces the old', async () => {
    const account = await createdAccount();
    const first = await requestCode(h, h.client(), account);
    const again = await h.client().post(apiPaths.sendCode, { email: account.email, username: account.username });
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(again.json().message).toMatch(/^A code was sent moments ago\. Try again in (\d+ seconds?|1 minute)\.$/);

    h.clock.advance(60_000);
    const second = await requestCode(h, h.client(), account);
    if (second !== first) expect((await verify(account, first)).json()).toEqual({ message: INVALID });
    expect((await verify(account, second)).statusCode).toBe(200);
  });

  it('names the field for bad input', async () => {
    const response = await h.client().post(apiPaths.sendCode, { email: 'x@example.test' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'username is required' });
  });
});

describe('POST /api/email/verify-code', () => {
  it('verifies the account with the mailed code, once', async () => {
    const account = await createdAccount();
    const code = await requestCode(h, h.client(), account);
    const response = await verify(account, code);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Email verified' });
    expect((await verify(account, code)).json()).toEqual({ message: INVALID });
  });

  it('deletes the code once it is used', async () => {
    const account = await createdAccount();
    const code = await requestCode(h, h.client(), account);
    await verify(account, code);
    const user = await h.db.selectFrom('users').select('id').where('username', '=', account.username).executeTakeFirstOrThrow();
    expect(await h.db.selectFrom('verification_codes').where('user_id', '=', user.id).selectAll().execute()).toEqual([]);
  });

  it('accepts the code typed in lower case and with surrounding spaces', async () => {
    const account = await createdAccount();
    const code = await requestCode(h, h.client(), account);
    expect((await verify(account, ` ${code.toLowerCase()} `)).statusCode).toBe(200);
  });

  it('refuses a wrong code', async () => {
    const account = await createdAccount();
    const code = await requestCode(h, h.client(), account);
    const response = await verify(account, wrongCode(code));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: INVALID });
  });

  it('refuses the 6th try on one code even with the right code; a new code works', async () => {
    const account = await createdAccount();
    const code = await requestCode(h, h.client(), account);
    for (let i = 0; i < 5; i += 1) expect((await verify(account, wrongCode(code))).json()).toEqual({ message: INVALID });
    const sixth = await verify(account, code);
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json()).toEqual({ message: TOO_MANY });

    h.clock.advance(60_000);
    const fresh = await requestCode(h, h.client(), account);
    expect((await verify(account, fresh)).statusCode).toBe(200);
  });

  it('accepts the right code on the 5th try', async () => {
    const account = await createdAccount();
    const code = await requestCode(h, h.client(), account);
    for (let i = 0; i < 4; i += 1) await verify(account, wrongCode(code));
    expect((await verify(account, code)).statusCode).toBe(200);
  });

  it('refuses an expired code (after 10 minutes)', async () => {
    const account = await createdAccount();
    const code = await requestCode(h, h.client(), account);
    h.clock.advance(10 * 60_000 + 1);
    const response = await verify(account, code);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: INVALID });
  });

  it('accepts a code just before it expires', async () => {
    const account = await createdAccount();
    const code = await requestCode(h, h.client(), account);
    h.clock.advance(10 * 60_000 - 5_000);
    expect((await verify(account, code)).statusCode).toBe(200);
  });

  it('refuses a code presented with another email or for an unknown account', async () => {
    const account = await createdAccount();
    const code = await requestCode(h, h.client(), account);
    const otherEmail = await h.client().post(apiPaths.verifyCode, { email: 'x@example.test', username: account.username, code });
    expect(otherEmail.json()).toEqual({ message: INVALID });
    const unknown = await h.client().post(apiPaths.verifyCode, { email: account.email, username: 'ghost_user', code });
    expect(unknown.json()).toEqual({ message: INVALID });
    expect((await verify(account, code)).statusCode).toBe(200);
  });

  it('refuses a code of another account', async () => {
    const alice = await createdAccount();
    const bob = await createdAccount();
    const aliceCode = await requestCode(h, h.client(), alice);
    const bobCode = await requestCode(h, h.client(), bob);
    if (aliceCode !== bobCode) expect((await verify(bob, aliceCode)).json()).toEqual({ message: INVALID });
  });

  it('names the field for a code of the wrong length', async () => {
    const account = await createdAccount();
    const response = await verify(account, 'ABC');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'code must be 6 characters' });
  });
});

describe('unverified accounts', () => {
  it('cannot sign in, and are told so only after a correct authKey', async () => {
    const account = await createdAccount();
    const response = await login(h.client(), account);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      message: 'Please verify your email before signing in.',
      data: { username: account.username, email: account.email, unverified: true },
    });
    expect(response.headers['set-cookie']).toBeUndefined();
    const wrong = await h.client().post(apiPaths.login, { username: account.username, password: 'A'.repeat(43) });
    expect(wrong.statusCode).toBe(401);
  });

  it('can sign in once verified', async () => {
    const account = await createdAccount();
    const code = await requestCode(h, h.client(), account);
    await verify(account, code);
    expect((await login(h.client(), account)).statusCode).toBe(200);
  });
});
