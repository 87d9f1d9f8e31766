import { expect } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { createRepositories } from '../../src/db/repositories/index';
import { createInvite, type CreatedInvite } from '../../src/identity/invites';
import { createSmtpMailer } from '../../src/mail/smtp-mailer';
import type { TestHarness } from './test-app';
import type { InjectClient } from './inject-client';
import { createBody, requestCode, type TestAccount } from './accounts';

/** An invitation made as the operator makes one (lockit-admin, the admin page): invitedBy null. */
export async function operatorInvite(h: TestHarness, email?: string): Promise<CreatedInvite> {
  const mailer = createSmtpMailer(h.sink.url, h.config.mailFrom, 10);
  try {
    const ctx = { config: h.config, repos: createRepositories(h.db), mailer, now: h.clock.now };
    return await createInvite(ctx, { invitedBy: null, ...(email !== undefined ? { email } : {}) });
  } finally {
    await mailer.close();
  }
}

/** The token inside an invitation link. */
export function tokenOf(url: string): string {
  return new URL(url).searchParams.get('invite')!;
}

/** Sign-up through an invitation link, as the web app does it: create with the token, then verify. */
export async function signUpWithInvite(h: TestHarness, client: InjectClient, account: TestAccount, url: string) {
  const created = await client.post(apiPaths.createUser, { ...createBody(account), invite: tokenOf(url) });
  expect(created.statusCode).toBe(201);
  const code = await requestCode(h, client, account);
  const verified = await client.post(apiPaths.verifyCode, { email: account.email, username: account.username, code });
  expect(verified.statusCode).toBe(200);
}
