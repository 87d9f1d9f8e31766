import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { DEFAULT_KDF_PARAMS, type KdfParams } from '@lockit/crypto';
import { useE2e } from './support/setup';
import { addEntryViaApi, createAccountViaApi, findSecrets, forgeProtectedKey, sentText, signInViaApi } from './support/hostile';
import { header, newAccount, signIn, signUpAndVerify, type Account } from './support/journeys';
import { addEntry as addEntryInPage, entryRows as entryRowsOf, openVault as openVaultPage } from './support/vault-page';
import { startTamperingProxy, type InterceptedResponse, type TamperingProxy } from '@lockit/test-support';

const e2e = useE2e();

/**
 * A hostile server serving the vault: one person signed in once in one tab; each test makes
 * the tampering proxy lie in the entry list (or the key material) and reopens the vault, and
 * checks what the person sees and what left the browser.
 */

const LIST = '/api/passwords/show/user-passwords';
const DAMAGED = 'This entry could not be decrypted. It may have been changed on the server.';

/** The victim's entries, typed in the browser: none of these texts may ever leave it. */
const typed = [
  { service: 'Harbor Registry', username: 'harbor-user-71', password: 'Harbor-Pass-7171' },
  { service: 'Lighthouse Mail', username: 'lighthouse-user-72', password: 'Lighthouse-Pass-7272' },
  { service: 'Orchard Bank', username: 'orchard-user-73', password: 'Orchard-Pass-7373' },
  { service: 'Quarry Forum', username: 'quarry-user-74', password: 'Quarry-Pass-7474' },
] as const;
/** An entry of ANOTHER account on the same server. */
const intruder = { serviceName: 'Intruder Service', username: 'intruder-user-99', password: 'Intruder-Pass-9999' };

interface WireEntry {
  id: string;
  serviceName: string;
  username: string;
  password: string;
  url: string | null;
  notes: string | null;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

let proxy: TamperingProxy;
let context: BrowserContext;
let page: Page;
let errors: string[];
let victim: Account;
/** The victim's entry ids, in the order of `typed`. */
let ids: string[];
let intruderEntry: WireEntry;
let testStart: number;

beforeAll(async () => {
  proxy = await startTamperingProxy(e2e.server.url);

  const other = newAccount('other');
  const floor: KdfParams = { algorithm: 'argon2id', memoryKiB: 64 * 1024, iterations: 3, parallelism: 1 };
  await createAccountViaApi(e2e.server.url, e2e.smtp, other, floor);
  intruderEntry = (await addEntryViaApi(
    await signInViaApi(e2e.server.url, other.username, other.password),
    intruder,
  )) as unknown as WireEntry;

  victim = newAccount('vaultvictim');
  context = await e2e.newContext({ baseURL: proxy.url });
  errors = e2e.errors;
  page = await context.newPage();
  await signUpAndVerify(page, e2e.smtp, victim);
  await signIn(page, victim.username, victim.password);
  await openVault();
  const addsBefore = proxy.recorded.length;
  for (const entry of typed) await addEntry(entry);
  ids = proxy.recorded
    .slice(addsBefore)
    .filter((r) => r.method === 'POST' && r.path === '/api/passwords/add')
    .map((r) => (JSON.parse(r.body) as { id: string }).id);
  expect(ids).toHaveLength(typed.length);
});

afterEach(() => {
  proxy.clearRules();
  errors.length = 0;
});

afterAll(async () => {
  await proxy?.close();
});

const openVault = () => openVaultPage(page);
const addEntry = (entry: (typeof typed)[number]) => addEntryInPage(page, entry);
const entryRows = () => entryRowsOf(page);
const rowById = (id: string) => page.locator(`[data-entry-id="${id}"]`);

/**
 * The server lies in the next entry lists: `tamper` changes the real list in place. The vault
 * screen is then left and opened again (no reload: the tab keeps its vault key), which makes
 * it fetch the list anew.
 */
async function reopenVaultWith(tamper: (entries: WireEntry[]) => WireEntry[] | void, expectedRows: number) {
  proxy.rewrite({
    method: 'GET',
    path: LIST,
    rewrite: (response: InterceptedResponse) => {
      const body = response.body as { data: WireEntry[] };
      body.data = tamper(body.data) ?? body.data;
    },
  });
  testStart = proxy.recorded.length;
  await header(page).getByRole('link', { name: 'Home' }).first().click();
  await page.waitForURL('**/home');
  await openVault();
  await expect.poll(() => entryRows().count(), { timeout: 10_000 }).toBe(expectedRows);
}

const entryOf = (entries: WireEntry[], index: number) => {
  const found = entries.find((e) => e.id === ids[index]);
  if (!found) throw new Error(`entry ${index} missing from the list`);
  return found;
};

async function expectDamaged(id: string) {
  const row = rowById(id);
  await row.getByText('Damaged entry').waitFor();
  await row.getByText(DAMAGED).waitFor();
  expect(await row.getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')))).toEqual([
    'Delete damaged entry',
  ]);
}

async function expectOpen(index: number) {
  await rowById(ids[index]!).getByText(typed[index]!.service, { exact: true }).waitFor();
}

/**
 * None of these texts is anywhere in the page, visible or not, outside the whole-vault alert:
 * the alert names entries from this browser's own sealed record of the vault (its manifest),
 * never from what the server served.
 */
async function expectNotInPage(...texts: string[]) {
  const html = await page.evaluate((heading) => {
    const copy = document.documentElement.cloneNode(true) as HTMLElement;
    for (const alert of Array.from(copy.querySelectorAll('[role="alert"]')))
      if (alert.textContent?.startsWith(heading)) alert.remove();
    return copy.outerHTML;
  }, INTEGRITY_HEADING);
  for (const text of texts) expect(html).not.toContain(text);
}

/**
 * The whole-vault check's alert (decision 0053) comes to say `detail`. Back on the vault page,
 * the previous check's alert shows until the new list has been checked: wait for the new one.
 */
async function expectIntegrityAlert(detail: string) {
  const alert = page.getByRole('alert').filter({ hasText: INTEGRITY_HEADING });
  await alert.waitFor();
  await expect.poll(() => alert.innerText(), { timeout: 10_000 }).toContain(detail);
}

const INTEGRITY_HEADING = "The server's copy of your vault is older or incomplete.";
const INTEGRITY_REFUSED = 'Lockit will not save changes on top of a vault the server changed behind your back.';
const ROLLED_BACK = 'This entry is older than the version this tab has already shown. The server may have rolled it back.';
const rotatedPassword = 'Quarry-Rotated-7575';

/**
 * Since the lie began the browser wrote nothing (no add, no update: nothing was encrypted
 * from what the server served), and in the whole session it sent no secret in any encoding.
 */
function expectNothingLeft() {
  const sent = proxy.recorded.slice(testStart);
  expect(sent.filter((r) => r.method !== 'GET' && r.path.startsWith('/api/passwords'))).toEqual([]);
  const secrets: Record<string, string> = { masterPassword: victim.password, rotatedPassword };
  typed.forEach((entry, i) => {
    secrets[`service${i}`] = entry.service;
    secrets[`username${i}`] = entry.username;
    secrets[`password${i}`] = entry.password;
  });
  expect(findSecrets(sentText(proxy.recorded), secrets)).toEqual([]);
  expect(errors).toEqual([]);
}

describe('a hostile server serving the vault', () => {
  it('attack 4: two fields of one entry swapped (password as user name, or user name as password) show as damaged at once', async () => {
    await reopenVaultWith((entries) => {
      const first = entryOf(entries, 0);
      [first.username, first.password] = [first.password, first.username];
      // The reverse, alone: the user name's ciphertext served as the password.
      const second = entryOf(entries, 1);
      second.password = second.username;
    }, typed.length);

    await expectDamaged(ids[0]!);
    await expectNotInPage(typed[0].password, typed[0].username, typed[0].service);
    // The second entry's list fields are intact, but its overview is bound to its password.
    await expectDamaged(ids[1]!);
    await expectNotInPage(typed[1].username, typed[1].password, typed[1].service);
    await expectOpen(2);
    await expectOpen(3);
    expectNothingLeft();
  });

  it('attack 5: the same field swapped between two entries shows both as damaged at once, a password too', async () => {
    await page.evaluate(() => navigator.clipboard.writeText('clipboard before'));
    await reopenVaultWith((entries) => {
      const [a, b, c, d] = [0, 1, 2, 3].map((i) => entryOf(entries, i));
      [a!.serviceName, b!.serviceName] = [b!.serviceName, a!.serviceName];
      [c!.password, d!.password] = [d!.password, c!.password];
    }, typed.length);

    // Each overview is bound to its entry's other fields: a moved password fails it as a moved name does.
    for (const id of ids.slice(0, 4)) await expectDamaged(id);
    await expectNotInPage(typed[0].service, typed[1].service, typed[2].service, typed[3].service);
    await expectNotInPage(typed[2].password, typed[3].password);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('clipboard before');
    expectNothingLeft();
  });

  it("attack 6: an entry of another account served in this one shows as damaged, as does one planted under this account's id", async () => {
    await reopenVaultWith((entries) => {
      const planted = { ...intruderEntry, id: ids[0]! };
      return [...entries.filter((e) => e.id !== ids[0]), planted, intruderEntry];
    }, typed.length + 1);

    await expectDamaged(intruderEntry.id);
    await expectDamaged(ids[0]!);
    await expectNotInPage(intruder.serviceName, intruder.username, intruder.password);
    for (const i of [1, 2, 3]) await expectOpen(i);
    expectNothingLeft();
  });

  it('attack 7: a flipped bit, a truncated ciphertext and unknown version prefixes (v0., v3.) show as damaged', async () => {
    await reopenVaultWith((entries) => {
      const flip = entryOf(entries, 0);
      const bytes = Buffer.from(flip.username.split('.')[2]!, 'base64url');
      bytes[0]! ^= 0x01;
      flip.username = `v2.${flip.username.split('.')[1]}.${bytes.toString('base64url')}`;
      const cut = entryOf(entries, 1);
      cut.serviceName = cut.serviceName.slice(0, -4);
      const old = entryOf(entries, 2);
      old.serviceName = old.serviceName.replace(/^v2\./, 'v0.');
      const next = entryOf(entries, 3);
      next.password = next.password.replace(/^v2\./, 'v3.');
    }, typed.length);

    for (const id of ids.slice(0, 4)) await expectDamaged(id);
    await expectNotInPage(typed[0].username, typed[1].service, typed[2].service, typed[3].service, typed[3].password);
    expectNothingLeft();
  });

  it('attack 8: a field served in plaintext instead of ciphertext shows as damaged at once, with nothing to reveal or edit', async () => {
    const planted = { username: 'server-planted-username', password: 'server-planted-password' };
    await reopenVaultWith((entries) => {
      entryOf(entries, 0).username = planted.username;
      entryOf(entries, 1).password = planted.password;
    }, typed.length);

    await expectDamaged(ids[0]!);
    // The plaintext password fails the entry's bound overview: no row to reveal, copy or edit.
    await expectDamaged(ids[1]!);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await expectNotInPage(planted.username, planted.password, typed[0].username);
    expectNothingLeft();
  });

  it("attack 9: an entry's id changed while its ciphertexts stay (to a new id, or two ids swapped) shows as damaged", async () => {
    const newId = crypto.randomUUID();
    await reopenVaultWith((entries) => {
      entryOf(entries, 0).id = newId;
      const [b, c] = [entryOf(entries, 1), entryOf(entries, 2)];
      [b.id, c.id] = [c.id, b.id];
    }, typed.length);

    await expectDamaged(newId);
    await expectDamaged(ids[1]!);
    await expectDamaged(ids[2]!);
    await expectOpen(3);
    await expectIntegrityAlert(`Missing: ${typed[0].service}.`);
    await expectNotInPage(typed[0].service, typed[1].service, typed[2].service);
    expectNothingLeft();
  });

  it('attack 11: an entry rolled back to an older ciphertext of itself, with its older revision, is refused within the tab', async () => {
    // The honest list first, and the entry as the server holds it now (revision 1).
    await reopenVaultWith(() => undefined, typed.length);
    const older = entryOf((proxy.lastAnswer('GET', LIST) as { data: WireEntry[] }).data, 3);
    expect(older.revision).toBe(1);

    const row = rowById(ids[3]!);
    await row.getByRole('button', { name: `Edit ${typed[3].service}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Password' });
    await edit.getByLabel('Password', { exact: true }).fill(rotatedPassword);
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });

    await reopenVaultWith((entries) => entries.map((e) => (e.id === older.id ? older : e)), typed.length);
    await row.getByText(ROLLED_BACK).waitFor();
    expect(await row.getByRole('button').count()).toBe(1);
    await expectIntegrityAlert(`Older than this browser last saw: ${typed[3].service}.`);
    await expectNotInPage(typed[3].password, typed[3].service);
    for (const i of [0, 1, 2]) await expectOpen(i);
    expectNothingLeft();
  });

  it('attack 11: the older ciphertext served under the current revision number is reported by the whole-vault check, and nothing is written on it', async () => {
    let older: WireEntry | undefined;
    for (const r of proxy.recorded.filter((r) => r.path === LIST && r.answer)) {
      const entry = (JSON.parse(r.answer!.body) as { data: WireEntry[] }).data.find((e) => e.id === ids[3]);
      if (entry?.revision === 1) older = entry;
    }
    if (!older) throw new Error('no revision-1 copy of the entry was recorded');
    const oldCopy = older;
    await reopenVaultWith((entries) => {
      const current = entryOf(entries, 3);
      expect(current.revision).toBe(2);
      Object.assign(current, { serviceName: oldCopy.serviceName, username: oldCopy.username, password: oldCopy.password });
    }, typed.length);

    // Each field still opens (its AAD binds entry and field, not the revision), but the
    // vault's integrity state covers every ciphertext: the swap is reported above the list.
    await expectIntegrityAlert('Some entries or folders are not what your vault key saved.');
    // And the person cannot save on top of it.
    await rowById(ids[0]!)
      .getByRole('button', { name: `Edit ${typed[0].service}` })
      .click();
    const edit = page.getByRole('dialog', { name: 'Edit Password' });
    await edit.getByLabel('Password', { exact: true }).fill(rotatedPassword);
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText(INTEGRITY_REFUSED).waitFor();
    await edit.getByRole('button', { name: 'Cancel' }).click();
    expectNothingLeft();
  });

  it('attack 3: a wrapped vault key the server made under a password it chose is refused at Unlock, and nothing is encrypted under it', async () => {
    const pre = (await (
      await fetch(`${e2e.server.url}/api/users/prelogin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-lockit-client': 'web' },
        body: JSON.stringify({ username: victim.username }),
      })
    ).json()) as { data: { salt: string; kdf: KdfParams } };
    expect(pre.data.kdf).toEqual(DEFAULT_KDF_PARAMS);
    const forged = await forgeProtectedKey('the attacker chose this one', pre.data.salt, pre.data.kdf);
    proxy.rewrite({
      method: 'GET',
      path: '/api/user/key-material',
      rewrite: (response) => {
        (response.body as { data: { protectedKey: string } }).data.protectedKey = forged;
      },
    });

    // With "Lock on every reload" chosen (decision 0048), a reload locks the vault; the session
    // stays, so the Unlock form asks for the password.
    await page.evaluate(() => localStorage.setItem('lockit.lockOnReload', 'true'));
    await page.reload();
    testStart = proxy.recorded.length;
    const unlock = page.getByLabel('Master Password', { exact: true });
    await unlock.fill(victim.password);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('alert').filter({ hasText: 'That master password did not unlock your vault.' }).waitFor();
    expect(await entryRows().count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add', exact: true }).count()).toBe(0);
    expectNothingLeft();

    // With the real key material the same password unlocks the vault.
    proxy.clearRules();
    await unlock.fill(victim.password);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await expectOpen(3);
  });
});
