import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyOverview, type DetailsDocument } from '@lockit/contract';
import { addSealed, createVerifiedAccount, FLOOR_KDF, sealItem, type VerifiedAccount } from '@lockit/test-support';
import { PHONE } from '@lockit/test-support/chromium';
import { startPwnedStandIn } from '@lockit/test-support/pwned-stand-in';
import { signIn } from './support/journeys';
import { useE2e } from './support/setup';

/** The breach stand-in knows two of the seeded passwords; the server points browsers at it. */
const standIn = await startPwnedStandIn({ 'Tr0ub4dor&3': 3_645, 'Harbor-Lantern-Maple-91': 12 });
const e2e = useE2e({ serverEnv: { BREACH_CHECK_URL: standIn.url } });
afterAll(() => standIn.close());

const TOTP: DetailsDocument = { v: 1, totp: 'JBSWY3DPEHPK3PXP', hidden: {}, card: null, identity: null };

/** name, password, address, TOTP seed: one problem each (the reused pair shares one). */
const SEEDED = [
  { name: 'Weak Forum', password: 'sunshine7', url: 'https://forum.example' },
  { name: 'Reused Shop', password: 'Violet-Orchard-Quiet-42', url: 'https://shop.example' },
  { name: 'Reused Bank', password: 'Violet-Orchard-Quiet-42', url: 'https://bank.example' },
  { name: 'Plain Intranet', password: 'q7L!x2Vr9#Kp4Zt8Wm6$', url: 'http://intranet.example' },
  { name: 'Old Mail', password: 'Hx8#mQ2!pL5@wR9$zK3^', url: 'https://mail.example' },
  { name: 'Breached Wiki', password: 'Tr0ub4dor&3', url: 'https://wiki.example' },
  { name: 'Breached Dock', password: 'Harbor-Lantern-Maple-91', url: 'https://dock.example' },
  { name: 'No Code Cloud', password: 'Nw4%tY7&bC1*eG6(uJ2!', url: 'https://cloud.example', totp: false },
] as const;

let owner: VerifiedAccount;
const ids = new Map<string, string>();

beforeAll(async () => {
  owner = await createVerifiedAccount(e2e.server.url, e2e.smtp.inbox, {
    kdf: FLOOR_KDF,
    password: 'a quiet violet orchard at dusk',
  });
  const stored = await addSealed(owner.client, SEEDED.length, (n) => {
    const item = SEEDED[n]!;
    const withTotp = !('totp' in item);
    return sealItem(owner.vaultKey, {
      serviceName: item.name,
      username: 'ada',
      password: item.password,
      overview: { ...emptyOverview('login'), urls: [item.url], hasTotp: withTotp },
      details: withTotp ? TOTP : null,
    });
  });
  stored.forEach((entry, n) => ids.set(SEEDED[n]!.name, entry.id as string));
  // "Old Mail" was saved two years ago and never written since (the server sets the times).
  const db = new Database(e2e.server.databasePath);
  try {
    const twoYearsAgo = Date.now() - 2 * 365 * 24 * 3600 * 1000;
    db.prepare('UPDATE entries SET created_at = ?, updated_at = ? WHERE id = ?').run(
      twoYearsAgo,
      twoYearsAgo,
      ids.get('Old Mail'),
    );
  } finally {
    db.close();
  }
});

const count = (page: Page, title: string) => page.getByLabel(new RegExp(`^${title}: \\d+$`));
const section = (page: Page, title: string) => page.getByRole('list', { name: title });

async function openHealth(page: Page) {
  await page.goto('/vault/health');
  const unlock = page.getByLabel('Master Password', { exact: true });
  await unlock
    .or(page.getByRole('heading', { name: /Health score/ }))
    .first()
    .waitFor();
  if (await unlock.isVisible()) {
    await unlock.fill(owner.account.password);
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
  }
  await page.getByRole('heading', { name: /Health score/ }).waitFor({ timeout: 90_000 });
}

async function expectCounts(page: Page, expected: Record<string, number>) {
  for (const [title, n] of Object.entries(expected))
    await expect.poll(() => count(page, title).getAttribute('aria-label')).toBe(`${title}: ${n}`);
}

describe('vault health report', () => {
  it('shows each seeded problem in its category with the right counts, breaches once opted in', async () => {
    const context = await e2e.newContext();
    const page = await context.newPage();
    await signIn(page, owner.account.username, owner.account.password);
    await openHealth(page);

    await expectCounts(page, {
      'Weak passwords': 1,
      'Reused passwords': 2,
      'Web addresses without HTTPS': 1,
      'Passwords unchanged for over a year': 1,
      'Logins without a TOTP seed': 1,
      'Breached passwords': 0,
    });
    await expect
      .poll(() => section(page, 'Weak passwords').getByRole('listitem').allInnerTexts())
      .toEqual([expect.stringContaining('Weak Forum')]);
    const reused = await section(page, 'Reused passwords').getByRole('listitem').allInnerTexts();
    expect(reused.map((text) => text.split('\n')[0]).sort()).toEqual(['Reused Bank', 'Reused Shop']);
    await expect.poll(() => section(page, 'Web addresses without HTTPS').innerText()).toContain('Plain Intranet');
    await expect.poll(() => section(page, 'Passwords unchanged for over a year').innerText()).toContain('Old Mail');
    await expect.poll(() => section(page, 'Logins without a TOTP seed').innerText()).toContain('No Code Cloud');
    expect(standIn.requests).toEqual([]);

    // Opt in: only 5-hex prefixes go out, one per distinct prefix, and two are known.
    await page.getByRole('checkbox', { name: /Check my passwords against known data breaches/ }).check();
    await expectCounts(page, { 'Breached passwords': 2 });
    const breached = await section(page, 'Breached passwords').getByRole('listitem').allInnerTexts();
    expect(breached.map((text) => text.split('\n')[0]).sort()).toEqual(['Breached Dock', 'Breached Wiki']);
    expect(standIn.requests.every((path) => /^\/range\/[0-9A-F]{5}$/.test(path))).toBe(true);
    expect(new Set(standIn.requests).size).toBe(standIn.requests.length);
    await context.close();
  });

  it("shows each finding's reason whole on a phone, wrapped rather than cut", async () => {
    const context = await e2e.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await signIn(page, owner.account.username, owner.account.password);
    await openHealth(page);
    const reason = section(page, 'Logins without a TOTP seed').getByText(/No TOTP seed saved/);
    await reason.waitFor();
    // Cut text would be wider inside than its box (an ellipsis); wrapped text fits it.
    expect(await reason.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    expect(await reason.evaluate((element) => element.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
    await context.close();
  });

  it('keeps an exclusion after a reload, and can undo it', async () => {
    const context = await e2e.newContext();
    const page = await context.newPage();
    await signIn(page, owner.account.username, owner.account.password);
    await openHealth(page);
    await page.getByRole('button', { name: 'Exclude No Code Cloud from report' }).click();
    await expectCounts(page, { 'Logins without a TOTP seed': 0 });
    await expect.poll(() => page.getByRole('list', { name: 'Excluded from the report' }).innerText()).toContain('No Code Cloud');

    await page.reload();
    await openHealth(page);
    await expectCounts(page, { 'Logins without a TOTP seed': 0, 'Weak passwords': 1 });
    await page.getByRole('button', { name: 'Include No Code Cloud again' }).click();
    await expectCounts(page, { 'Logins without a TOTP seed': 1 });
    await context.close();
  });

  it('"Change" opens the item\'s edit dialog in the vault', async () => {
    const context = await e2e.newContext();
    const page = await context.newPage();
    await signIn(page, owner.account.username, owner.account.password);
    await openHealth(page);
    await section(page, 'Weak passwords').getByRole('button', { name: 'Change Weak Forum' }).click();
    // The vault drops `?edit=…&generate=1` as soon as it opens the dialog, so the address is
    // checked after the fact: the dialog for that item, its generator showing, the query gone.
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect.poll(() => dialog.getByLabel('Service').inputValue()).toBe('Weak Forum');
    await dialog.getByRole('group', { name: 'Password generator' }).waitFor();
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe('/vault');
    await context.close();
  });

  it('the strength meter in the Add dialog reacts to typing', async () => {
    const context = await e2e.newContext();
    const page = await context.newPage();
    await signIn(page, owner.account.username, owner.account.password);
    await page.getByRole('banner').getByRole('link', { name: 'Vault' }).first().click();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const dialog = page.getByRole('dialog');
    const password = dialog.getByLabel('Password', { exact: true });
    await password.pressSequentially('password1', { delay: 20 });
    await dialog.getByText('Strength: Very weak').waitFor();
    await password.pressSequentially(' of a quiet violet orchard', { delay: 20 });
    await dialog.getByText('Strength: Very strong').waitFor();
    await context.close();
  });
});
