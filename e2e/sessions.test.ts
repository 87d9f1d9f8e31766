import { describe, expect, it } from 'vitest';
import { PHONE } from '@lockit/test-support/chromium';
import { useE2e } from './support/setup';
import { newAccount, signIn, signUpViaApi } from './support/journeys';

const e2e = useE2e();

describe('Sessions and devices', () => {
  it('one browser ends the other’s session from Profile at 375 px; the other is signed out at its next action', async () => {
    const account = newAccount('devices');
    const phone = await e2e.newContext({ viewport: PHONE });
    const laptop = await e2e.newContext();
    const phonePage = await phone.newPage();
    const laptopPage = await laptop.newPage();

    await signUpViaApi(e2e.server, e2e.smtp, account);
    await signIn(phonePage, account.username, account.password);
    await signIn(laptopPage, account.username, account.password);
    await laptopPage.goto('/profile');
    await laptopPage.getByRole('region', { name: 'Sessions and devices' }).waitFor();

    await phonePage.goto('/profile');
    const section = phonePage.getByRole('region', { name: 'Sessions and devices' });
    const rows = section.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    const mine = rows.filter({ hasText: 'This device' });
    const other = rows.filter({ hasNotText: 'This device' });
    expect(await mine.count()).toBe(1);
    // Chromium's own User-Agent, read by the server: "Chrome <major> on Linux".
    expect(await mine.innerText()).toMatch(/Chrome \d+ on Linux/);
    expect(await other.innerText()).toMatch(/127\.0\.0\.1|::1/);
    // Usable at 375 px: nothing wider than the screen.
    expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await other.getByRole('button', { name: 'End' }).click();
    const dialog = phonePage.getByRole('dialog', { name: 'End this session?' });
    await dialog.getByRole('button', { name: 'End session' }).click();
    await section.getByRole('status').filter({ hasText: 'Session ended' }).waitFor();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);

    // The laptop's very next action (reloading Profile) finds its session gone: back to sign-in.
    await laptopPage.reload();
    await laptopPage.waitForURL('**/signin', { timeout: 10_000 });

    // The phone is untouched.
    await phonePage.reload();
    await section.getByText('This device').waitFor();
    expect(phonePage.url()).toMatch(/\/profile$/);

    await phone.close();
    await laptop.close();
  });
});
