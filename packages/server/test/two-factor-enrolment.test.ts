import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { signedInUser } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';
import { enableTotp, toNextMidStep, totpCodeAt } from './helpers/two-factor';
import { openTotpSeed } from '../src/auth/two-factor/totp-seed-seal';

const h = useTestApp();
const WRONG_KEY = 'A'.repeat(43);

async function status(client: Awaited<ReturnType<typeof signedInUser>>['client']) {
  const response = await client.get(apiPaths.twoFactor);
  expect(response.statusCode).toBe(200);
  return response.json().data as {
    totp: boolean;
    recoveryCodesLeft: number;
    credentials: unknown[];
    rememberBrowserDays: number;
  };
}

describe('TOTP enrolment', () => {
  it('needs the current master password to start, and a wrong one changes nothing', async () => {
    const { account, client } = await signedInUser(h);
    const refused = await client.post(apiPaths.totpSetup, { password: WRONG_KEY });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Current password is incorrect.');
    const row = await h.db
      .selectFrom('users')
      .select('totp_pending_secret')
      .where('username', '=', account.username)
      .executeTakeFirstOrThrow();
    expect(row.totp_pending_secret).toBeNull();
    expect((await status(client)).totp).toBe(false);
  });

  it('answers a base32 secret and an otpauth URI labelled with the user name, and keeps the seed sealed', async () => {
    const { account, client } = await signedInUser(h);
    const response = await client.post(apiPaths.totpSetup, { password: account.keys.authKey });
    expect(response.statusCode).toBe(200);
    const { secret, uri } = response.json().data as { secret: string; uri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(new RegExp(`^otpauth://totp/Lockit:${encodeURIComponent(account.username)}\\?`));
    expect(uri).toContain('issuer=Lockit');
    const row = await h.db
      .selectFrom('users')
      .select(['id', 'totp_pending_secret', 'totp_secret'])
      .where('username', '=', account.username)
      .executeTakeFirstOrThrow();
    expect(row.totp_secret).toBeNull();
    expect(row.totp_pending_secret).not.toContain(secret);
    expect(openTotpSeed(h.config.serverSecret, row.id, row.totp_pending_secret!)).toBe(secret);
    expect(openTotpSeed(Buffer.from('another-server-secret-0123456789abcdef'), row.id, row.totp_pending_secret!)).toBeUndefined();
    expect((await status(client)).totp).toBe(false);
  });

  it('turns on with a right code, returning 10 recovery codes shown once', async () => {
    const { account, client } = await signedInUser(h);
    const { recoveryCodes } = await enableTotp(h, client, account);
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
    expect(new Set(recoveryCodes).size).toBe(10);
    const now = await status(client);
    expect(now.totp).toBe(true);
    expect(now.recoveryCodesLeft).toBe(10);
    const stored = await h.db.selectFrom('recovery_codes').select('code_hash').execute();
    for (const code of recoveryCodes) expect(stored.map((r) => r.code_hash).join()).not.toContain(code);
  });

  it('refuses a wrong code and stays off', async () => {
    const { account, client } = await signedInUser(h);
    const setup = await client.post(apiPaths.totpSetup, { password: account.keys.authKey });
    const { secret } = setup.json().data as { secret: string };
    toNextMidStep(h);
    const right = totpCodeAt(secret, h.clock.now());
    const wrong = right === '000000' ? '111111' : '000000';
    const refused = await client.post(apiPaths.totpConfirm, { code: wrong });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/not right/);
    expect((await status(client)).totp).toBe(false);
    const badShape = await client.post(apiPaths.totpConfirm, { code: '12ab56' });
    expect(badShape.statusCode).toBe(400);
    expect(badShape.json().message).toBe('code must be 6 digits');
  });

  it('forgets a pending seed after 10 minutes', async () => {
    const { account, client } = await signedInUser(h);
    const setup = await client.post(apiPaths.totpSetup, { password: account.keys.authKey });
    const { secret } = setup.json().data as { secret: string };
    h.clock.advance(10 * 60_000 + 1_000);
    const late = await client.post(apiPaths.totpConfirm, { code: totpCodeAt(secret, h.clock.now()) });
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe('This setup has expired. Start again.');
    expect((await status(client)).totp).toBe(false);
  });

  it('turns off with the master password, and then the recovery codes go too', async () => {
    const { account, client } = await signedInUser(h);
    await enableTotp(h, client, account);
    expect((await client.post(apiPaths.totpDisable, { password: WRONG_KEY })).statusCode).toBe(403);
    expect((await status(client)).totp).toBe(true);
    const off = await client.post(apiPaths.totpDisable, { password: account.keys.authKey });
    expect(off.statusCode).toBe(200);
    const now = await status(client);
    expect(now.totp).toBe(false);
    expect(now.recoveryCodesLeft).toBe(0);
  });

  it('reports the operator’s remember-browser days and no credentials for a new account', async () => {
    const { client } = await signedInUser(h);
    const now = await status(client);
    expect(now).toEqual({
      totp: false,
      recoveryCodesLeft: 0,
      credentials: [],
      rememberBrowserDays: h.config.rememberBrowserDays,
    });
  });

  it('refuses new recovery codes to an account without a factor', async () => {
    const { account, client } = await signedInUser(h);
    const refused = await client.post(apiPaths.recoveryCodes, { password: account.keys.authKey });
    expect(refused.statusCode).toBe(409);
    expect((await status(client)).recoveryCodesLeft).toBe(0);
  });
});
