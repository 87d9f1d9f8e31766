import { expect } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { apiPaths } from '@lockit/contract';
import { login, type TestAccount } from './accounts';
import type { InjectClient } from './inject-client';
import type { TestHarness } from './test-app';

const STEP_MS = 30_000;

/** The code an authenticator app shows for `secret` at `at` (epoch ms). */
export function totpCodeAt(secret: string, at: number): string {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at });
}

/** Moves the app's clock to the middle of the next time step, so a test's codes never straddle a step boundary. */
export function toNextMidStep(h: TestHarness): void {
  const now = h.clock.now();
  h.clock.advance(STEP_MS - (now % STEP_MS) + STEP_MS / 2);
}

/** Sets up and confirms TOTP for a signed-in client; returns the seed and the recovery codes shown once. */
export async function enableTotp(h: TestHarness, client: InjectClient, account: TestAccount) {
  const setup = await client.post(apiPaths.totpSetup, { password: account.keys.authKey });
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json().data as { secret: string };
  toNextMidStep(h);
  const confirmed = await client.post(apiPaths.totpConfirm, { code: totpCodeAt(secret, h.clock.now()) });
  expect(confirmed.statusCode).toBe(200);
  const recoveryCodes = (confirmed.json().data as { recoveryCodes?: string[] }).recoveryCodes ?? [];
  // The confirming code's step is used: the next code must come from a later step.
  toNextMidStep(h);
  return { secret, recoveryCodes };
}

/** Signs in with the password and expects the second-factor answer; returns the pending sign-in's token. */
export async function passwordStep(client: InjectClient, account: TestAccount): Promise<string> {
  const response = await login(client, account);
  expect(response.statusCode).toBe(200);
  const body = response.json() as { data: { secondFactor?: { token: string } } };
  expect(body.data.secondFactor?.token).toBeTruthy();
  return body.data.secondFactor!.token;
}

export function secondFactor(
  client: InjectClient,
  body: { token: string; method: 'totp' | 'recovery'; code: string; remember?: boolean },
) {
  return client.post(apiPaths.loginSecondFactor, body);
}
