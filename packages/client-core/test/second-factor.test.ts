import { apiPaths } from '@lockit/contract';
import { Secret, TOTP } from 'otpauth';
import type { VerifiedAccount } from '@lockit/test-support';
import { describe, expect, it } from 'vitest';
import {
  accountRefOf,
  ApiError,
  SecondFactorExpiredError,
  SecondFactorInputError,
  signIn,
  type OpenVault,
  type PendingSecondFactor,
} from '../src';
import { coreDevice, databaseKind, type CoreTestServer } from './support/core-against-server';
import { useCoreServer } from './support/use-core-server';

const STEP_MS = 30_000;

/** The code an authenticator app shows for `secret` at `at` (epoch ms). */
function totpCodeAt(secret: string, at: number): string {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at });
}

/** TOTP turned on for the account through the real server; the seed and the recovery codes shown once. */
async function enableTotp({ client, account }: VerifiedAccount) {
  const setup = await client.expect<{ data: { secret: string } }>(200, 'POST', apiPaths.totpSetup, {
    password: account.keys.authKey,
  });
  const { secret } = setup.data;
  const confirmed = await client.expect<{ data: { recoveryCodes?: string[] } }>(200, 'POST', apiPaths.totpConfirm, {
    code: totpCodeAt(secret, Date.now()),
  });
  return { secret, recoveryCodes: confirmed.data.recoveryCodes ?? [] };
}

async function passwordStep(env: CoreTestServer, holder: VerifiedAccount, baseUrl = env.server.url) {
  const device = coreDevice(baseUrl);
  const result = await signIn(device.platform, holder.account.username, holder.account.password);
  if (result.kind !== 'second-factor') throw new Error('expected a second step');
  return { device, pending: result.pending as PendingSecondFactor<OpenVault> };
}

const env = useCoreServer();

describe(`the client core's second step against the real server (${databaseKind})`, () => {
  it('asks for the second factor after the right password and opens the vault with an authenticator code', async () => {
    const holder = await env.account();
    const { secret } = await enableTotp(holder);
    const { device, pending } = await passwordStep(env, holder);
    expect(pending.methods).toContain('totp');
    expect(await device.memory.sessionAccount()).toBeNull();

    // The confirming code's step is used; the server's window takes the next step's code now.
    const opened = await pending.withCode('totp', totpCodeAt(secret, Date.now() + STEP_MS), false);
    expect(opened.vault.username).toBe(holder.account.username);
    expect(opened.recoveryCodesLeft).toBeUndefined();
    expect(await device.memory.sessionAccount()).toBe(await accountRefOf(holder.account.username));
    const profile = await device.platform.api.call('profile', {});
    expect(profile.data.username).toBe(holder.account.username);
  });

  it('opens the vault with a recovery code and says how many are left', async () => {
    const holder = await env.account();
    const { recoveryCodes } = await enableTotp(holder);
    expect(recoveryCodes).toHaveLength(10);
    const { pending } = await passwordStep(env, holder);
    const opened = await pending.withCode('recovery', recoveryCodes[0]!, false);
    expect(opened.recoveryCodesLeft).toBe(9);
  });

  it('answers a wrong code with the server’s 401 and keeps the same sign-in open for another try', async () => {
    const holder = await env.account();
    const { secret } = await enableTotp(holder);
    const { pending } = await passwordStep(env, holder);
    const wrong = totpCodeAt(secret, Date.now() + STEP_MS) === '000000' ? '111111' : '000000';
    const failure = await pending.withCode('totp', wrong, false).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(401);
    const opened = await pending.withCode('totp', totpCodeAt(secret, Date.now() + STEP_MS), false);
    expect(opened.vault.username).toBe(holder.account.username);
  });

  it('refuses what is not a code of that kind without sending it', async () => {
    const holder = await env.account();
    await enableTotp(holder);
    const { pending } = await passwordStep(env, holder, env.proxy.url);
    const sent = env.proxy.recorded.length;
    await expect(pending.withCode('totp', '12ab56', false)).rejects.toBeInstanceOf(SecondFactorInputError);
    await expect(pending.withCode('recovery', 'not a code', false)).rejects.toBeInstanceOf(SecondFactorInputError);
    expect(env.proxy.recorded.length).toBe(sent);
  });

  it('forgets the derived key once the pending sign-in is over, and says to sign in again', async () => {
    const holder = await env.account();
    const { secret } = await enableTotp(holder);
    const { pending } = await passwordStep(env, holder);
    pending.discard();
    await expect(pending.withCode('totp', totpCodeAt(secret, Date.now() + STEP_MS), false)).rejects.toBeInstanceOf(
      SecondFactorExpiredError,
    );
  });
});
