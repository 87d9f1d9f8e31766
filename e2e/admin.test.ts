import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiPaths } from '@lockit/contract';
import { hashAdminToken } from '@lockit/server/internals';
import { createServerDatabase, createVerifiedAccount, startServerProcess } from '@lockit/test-support';
import { PHONE } from '@lockit/test-support/chromium';
import { useE2e } from './support/setup';
import { submitSignIn } from './support/journeys';

const TOKEN = 'e2e-operator-token-0123456789abcdef';
const e2e = useE2e({ serverEnv: { ADMIN_TOKEN: await hashAdminToken(TOKEN) } });

async function signInAsOperator(page: Page): Promise<void> {
  await page.goto('/admin');
  await page.getByLabel('Admin token', { exact: true }).fill(TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Users', exact: false }).waitFor();
}

describe('the admin page', () => {
  it('signs in with the token, lists users, disables one (who then cannot sign in), copies diagnostics, signs out', async () => {
    const alice = await createVerifiedAccount(e2e.server.url, e2e.smtp.inbox, {
      entries: [{ serviceName: 'Secret Bank', username: 'alice', password: 'hunter2' }],
    });
    const context = await e2e.newContext();
    const page = await context.newPage();

    await page.goto('/admin');
    await page.getByLabel('Admin token', { exact: true }).fill('not the token at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('That admin token is not right.');
    await signInAsOperator(page);

    const row = page.getByRole('row', { name: alice.account.username });
    await row.waitFor();
    expect(await row.textContent()).toContain(alice.account.email);
    expect(await row.textContent()).toContain('Active');
    expect(await page.content()).not.toContain('Secret Bank');

    await row.getByRole('button', { name: `Disable ${alice.account.username}` }).click();
    await page.getByText('Account disabled; its sessions have ended').waitFor();
    await row.getByText('Disabled', { exact: true }).waitFor();
    // The account's API session ended at once.
    expect((await alice.client.request('GET', apiPaths.profile)).status).toBe(401);

    const userPage = await (await e2e.newContext()).newPage();
    await submitSignIn(userPage, alice.account.username, alice.account.password);
    await userPage.getByText("This account is disabled. Contact the server's operator.").waitFor();
    await userPage.context().close();

    const diagnostics = page.getByLabel('Diagnostics text');
    await diagnostics.waitFor();
    await page.getByRole('button', { name: 'Copy diagnostics' }).click();
    await page.getByText('Copied').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^Lockit diagnostics\nLockit version: /);
    expect(copied).toBe(await diagnostics.textContent());

    await page.getByRole('button', { name: 'Create invite' }).click();
    expect(await page.getByRole('status', { name: 'Invitation link' }).textContent()).toMatch(/\/signup\?invite=[\w-]{43}$/);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token', { exact: true }).waitFor();
    await page.reload();
    await page.getByLabel('Admin token', { exact: true }).waitFor();
    await context.close();
  });

  it('is usable at 375 px: each user is a card with its actions, nothing wider than the screen', async () => {
    const bob = await createVerifiedAccount(e2e.server.url, e2e.smtp.inbox);
    const context = await e2e.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await signInAsOperator(page);
    const row = page.getByRole('row', { name: bob.account.username });
    await row.getByRole('button', { name: `Delete ${bob.account.username}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete account' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await row.isVisible()).toBe(true);
    const box = await row.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await row.getByRole('button', { name: `Delete ${bob.account.username}` }).click();
    await dialog.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('Account deleted').waitFor();
    await row.waitFor({ state: 'detached' });
    await context.close();
  });
});

describe('a server without ADMIN_TOKEN', () => {
  it('has no admin page: /admin is "Page not found" and the admin API answers 404', async () => {
    const database = await createServerDatabase('sqlite', 'lockit-e2e-no-admin');
    const server = await startServerProcess({ webApp: true, env: database.env });
    try {
      const context = await e2e.newContext({ baseURL: server.url });
      const page = await context.newPage();
      await page.goto('/admin');
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      expect(await page.getByLabel('Admin token', { exact: true }).count()).toBe(0);
      const answer = await fetch(`${server.url}/api/admin/session`);
      expect(answer.status).toBe(404);
      await context.close();
    } finally {
      await server.stop();
      await database.drop();
    }
  });
});
