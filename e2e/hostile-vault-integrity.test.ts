import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiPaths, VAULT_STATE_HEADER } from '@lockit/contract';
import { expectNoAxeViolations } from './support/axe';
import { useE2e } from './support/setup';
import { header, newAccount, signIn, signUpAndVerify, submitSignIn, type Account } from './support/journeys';
import { addEntry, entryRows, openVault, rowOf } from './support/vault-page';
import { startTamperingProxy, type RecordedRequest, type TamperingProxy } from '@lockit/test-support';

const e2e = useE2e();

/**
 * A hostile server against the whole vault (decision 0053): it withholds or deletes an entry,
 * resurrects a trashed one, rolls one back with its revision, or rolls the whole vault back to
 * an older consistent state. Each entry it serves is genuine, so only the whole-vault check can
 * see it. The person sees what is wrong above the list, and nothing is written on top of the
 * lie, even when they try to add or edit. Last: two browsers of the account writing at once
 * are serialised, nothing lost.
 *
 * Longer than most files on purpose: the attacks share one seeded vault behind one proxy, and
 * the helpers below read that shared state (seeding it again per file would cost a minute of
 * Chromium each).
 */

const LIST = apiPaths.listEntries;
const HEADING = "The server's copy of your vault is older or incomplete.";
const REFUSED = 'Lockit will not save changes on top of a vault the server changed behind your back.';

const typed = [
  { service: 'Alder Mail', username: 'alder-user-11', password: 'Alder-Pass-1111' },
  { service: 'Birch Bank', username: 'birch-user-12', password: 'Birch-Pass-1212' },
  { service: 'Cedar Forum', username: 'cedar-user-13', password: 'Cedar-Pass-1313' },
  { service: 'Dogwood Git', username: 'dogwood-user-14', password: 'Dogwood-Pass-1414' },
  { service: 'Elm Shop', username: 'elm-user-15', password: 'Elm-Pass-1515' },
  { service: 'Fir Notes', username: 'fir-user-16', password: 'Fir-Pass-1616' },
] as const;
/** Index of the entry moved to Trash before the attacks, and of the one edited once. */
const TRASHED = 5;
const EDITED = 2;

interface WireEntry {
  id: string;
  serviceName: string;
  username: string;
  password: string;
  url: string | null;
  notes: string | null;
  overview: string | null;
  details: string | null;
  revision: number;
  deletedAt: string | null;
}

let proxy: TamperingProxy;
let context: BrowserContext;
let page: Page;
let victim: Account;
/** Entry ids by service name. */
const ids = new Map<string, string>();
/** Where in the proxy's record the current lie began. */
let lieFrom: number;

const idOf = (service: string) => {
  const id = ids.get(service);
  if (!id) throw new Error(`no id for ${service}`);
  return id;
};

async function editPassword(on: Page, service: string, password: string) {
  await rowOf(on, service)
    .getByRole('button', { name: `Edit ${service}` })
    .click();
  const dialog = on.getByRole('dialog', { name: 'Edit Password' });
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

beforeAll(async () => {
  proxy = await startTamperingProxy(e2e.server.url);
  victim = newAccount('integrity');
  context = await e2e.newContext({ baseURL: proxy.url });
  page = await context.newPage();
  await signUpAndVerify(page, e2e.smtp, victim);
  await signIn(page, victim.username, victim.password);
  await openVault(page);
  for (const entry of typed) {
    const from = proxy.recorded.length;
    await addEntry(page, entry);
    const add = proxy.recorded.slice(from).find((r) => r.method === 'POST' && r.path === apiPaths.addEntry);
    ids.set(entry.service, (JSON.parse(add!.body) as { id: string }).id);
  }
  // One entry to Trash, one edited (revision 2, its first version in the history).
  const trashed = typed[TRASHED].service;
  await rowOf(page, trashed)
    .getByRole('button', { name: `Delete ${trashed}` })
    .click();
  await page
    .getByRole('dialog')
    .filter({ hasText: 'Are you sure you want to delete this password?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await rowOf(page, trashed).waitFor({ state: 'detached' });
  await editPassword(page, typed[EDITED].service, 'Cedar-Pass-1313-b');
  // Every write carried a state: the vault is under the check from its first write on.
  const writes = proxy.recorded.filter((r) => r.method !== 'GET' && r.path.startsWith('/api/passwords'));
  expect(writes.map((r) => typeof r.headers[VAULT_STATE_HEADER])).toEqual(writes.map(() => 'string'));
  await reopen(typed.length - 1);
  await expectNoAlert();
});

afterEach(() => {
  proxy.clearRules();
});

afterAll(async () => {
  await proxy?.close();
});

/** Leaves the vault and opens it again (the tab keeps its key): it fetches and checks the vault anew. */
async function reopen(rows: number, on: Page = page) {
  await header(on).getByRole('link', { name: 'Home' }).first().click();
  await on.waitForURL('**/home');
  await openVault(on);
  await waitForCount(() => entryRows(on).count(), rows);
}

/** As expect.poll, usable in hooks too. */
async function waitForCount(count: () => Promise<number>, expected: number, timeout = 15_000) {
  const until = Date.now() + timeout;
  let seen = await count();
  while (seen !== expected && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen = await count();
  }
  expect(seen).toBe(expected);
}

/** The next list answers (all of them: the browser fetches again before it reports) are rewritten. */
function serveList(tamper: (entries: WireEntry[]) => WireEntry[] | void) {
  proxy.rewrite({
    method: 'GET',
    path: LIST,
    rewrite: (response) => {
      const body = response.body as { data: WireEntry[] };
      body.data = tamper(body.data) ?? body.data;
    },
  });
}

const integrityAlert = (on: Page = page) => on.getByRole('alert').filter({ hasText: HEADING });

async function expectAlert(detail: string, on: Page = page) {
  const alert = integrityAlert(on);
  await alert.waitFor({ timeout: 15_000 });
  const text = await alert.innerText();
  expect(text.split('\n')[0]).toBe(HEADING);
  expect(text).toContain(detail);
  return text;
}

/** The check passed: no alert (it was shown before, or the poll would pass at once). */
async function expectNoAlert(on: Page = page) {
  await waitForCount(() => integrityAlert(on).count(), 0);
}

/** The person tries to add an entry and to edit one: both are refused in the app, nothing is sent. */
async function tryToWrite(service: string) {
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const add = page.getByRole('dialog', { name: 'Add New Password' });
  await add.getByLabel('Service').fill('Written On A Lie');
  await add.getByLabel('Username').fill('nobody');
  await add.getByLabel('Password', { exact: true }).fill('Never-Sent-0000');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await add.getByText(REFUSED).waitFor();
  await add.getByRole('button', { name: 'Cancel' }).click();

  await rowOf(page, service)
    .getByRole('button', { name: `Edit ${service}` })
    .click();
  const edit = page.getByRole('dialog', { name: 'Edit Password' });
  await edit.getByLabel('Password', { exact: true }).fill('Never-Sent-0001');
  await edit.getByRole('button', { name: 'Save' }).click();
  await edit.getByText(REFUSED).waitFor();
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await edit.waitFor({ state: 'hidden' });
}

const isWrite = (r: RecordedRequest) =>
  r.method !== 'GET' &&
  (r.path.startsWith('/api/passwords') ||
    r.path.startsWith('/api/folders') ||
    r.path.startsWith('/api/entries/batch') ||
    r.path.startsWith(apiPaths.vaultState));

/** No write of entries, folders or the vault state reached the server since the lie was first served. */
function expectNothingWritten() {
  const since = proxy.recorded.slice(lieFrom);
  expect(since.some((r) => r.method === 'GET' && r.path === LIST)).toBe(true);
  expect(since.filter(isWrite).map((r) => `${r.method} ${r.path}`)).toEqual([]);
}

/** The lie ends: the honest vault passes the check again in the same tab. */
async function honestAgain(rows = typed.length - 1) {
  proxy.clearRules();
  await reopen(rows);
  await expectNoAlert();
}

const counterOf = (state: string) => Number(state.split('.')[1]);

/** The vault state counter of this browser's offline copy (IndexedDB, read in the page), or null for none. */
function copiedStateCounter(on: Page): Promise<number | null> {
  return on.evaluate(
    () =>
      new Promise<number | null>((resolve, reject) => {
        const open = indexedDB.open('lockit-offline');
        open.onerror = () => reject(open.error ?? new Error('open failed'));
        open.onsuccess = () => {
          const database = open.result;
          if (!database.objectStoreNames.contains('copies')) {
            database.close();
            resolve(null);
            return;
          }
          const all = database.transaction('copies', 'readonly').objectStore('copies').getAll();
          all.onsuccess = () => {
            database.close();
            const state = (all.result as { vaultState: string | null }[])[0]?.vaultState;
            resolve(state ? Number(state.split('.')[1]) : null);
          };
          all.onerror = () => reject(all.error ?? new Error('read failed'));
        };
      }),
  );
}

/**
 * What needs the browser: the alert as a person sees it, the app refusing to write on top of a
 * lie, and this browser's memory of the vault across tabs and accounts. Every other lie (an
 * entry resurrected from Trash, one dropped from Trash, a purged one served again, a replayed
 * key) is proven by the client core's tests against the same kind of lying server
 * (packages/client-core/test/vault-integrity-attacks.test.ts), in a fraction of the time.
 */
describe('a hostile server against the whole vault', () => {
  it('withholds an entry from the list (the state header kept): it is named as missing, and nothing is written', async () => {
    serveList((entries) => entries.filter((e) => e.id !== idOf('Birch Bank')));
    lieFrom = proxy.recorded.length;
    await reopen(typed.length - 2);

    await expectAlert('Missing: Birch Bank.');
    await expectNoAxeViolations(page, 'the vault with the integrity alert');
    await tryToWrite('Alder Mail');
    expectNothingWritten();
    await honestAgain();
  });

  it('rolls one entry back to its older version from the history, with its older revision: it is named as older, and nothing is written', async () => {
    const db = new Database(e2e.server.databasePath, { readonly: true });
    const id = idOf(typed[EDITED].service);
    const older = db.prepare('SELECT * FROM entry_history WHERE entry_id = ? AND revision = 1').get(id) as Record<
      string,
      string | number | null
    >;
    db.close();
    expect(older).toBeDefined();
    serveList((entries) => {
      const current = entries.find((e) => e.id === id)!;
      expect(current.revision).toBe(2);
      Object.assign(current, {
        serviceName: older.service_name,
        username: older.username,
        password: older.password,
        url: older.url,
        notes: older.notes,
        overview: older.overview,
        details: older.details,
        revision: 1,
      });
    });
    lieFrom = proxy.recorded.length;
    await reopen(typed.length - 1);

    await expectAlert(`Older than this browser last saw: ${typed[EDITED].service}.`);
    await tryToWrite('Alder Mail');
    expectNothingWritten();
    await honestAgain();
  });

  it('rolls the whole vault back to an older consistent state: the browser that saw the newer one reports it, a new browser accepts it (the documented limit)', async () => {
    // The vault as served now: list, folders and the state, all genuine.
    await reopen(typed.length - 1);
    const listAnswer = proxy.recorded.findLast((r) => r.method === 'GET' && r.path === LIST && r.answer?.status === 200)!;
    const foldersAnswer = proxy.recorded.findLast(
      (r) => r.method === 'GET' && r.path === apiPaths.folders && r.answer?.status === 200,
    )!;
    const oldState = listAnswer.answer!.headers[VAULT_STATE_HEADER] as string;
    expect(typeof oldState).toBe('string');
    const oldList = JSON.parse(listAnswer.answer!.body) as { data: WireEntry[] };
    const oldFolders = JSON.parse(foldersAnswer.answer!.body) as unknown;
    // The change cursor's whole read of the same vault: a server restored from a backup answers
    // live catch-ups from that backup too.
    const oldChanges = (await page.evaluate(async (path) => (await fetch(`${path}?since=0`)).json(), apiPaths.vaultChanges)) as {
      message: string;
      data: { cursor: number };
    };

    // More saves in this browser: a new entry and an edit.
    await addEntry(page, { service: 'Gum Tree', username: 'gum-user-17', password: 'Gum-Pass-1717' });
    await editPassword(page, 'Dogwood Git', 'Dogwood-Pass-1414-b');
    await reopen(typed.length);
    const newState = proxy.recorded.findLast((r) => r.method === 'GET' && r.path === LIST && r.answer?.status === 200)!.answer!
      .headers[VAULT_STATE_HEADER] as string;
    expect(counterOf(newState)).toBe(counterOf(oldState) + 2);

    // The server goes back to the old vault: every answer and the state header as they were.
    const serveOld = () => {
      proxy.rewrite({
        method: 'GET',
        path: LIST,
        rewrite: (response) => {
          response.headers[VAULT_STATE_HEADER] = oldState;
          return oldList;
        },
      });
      proxy.rewrite({ method: 'GET', path: apiPaths.folders, rewrite: () => oldFolders });
      // A cursor from the newer vault is unknown to the old one: read it whole again.
      proxy.rewrite({
        method: 'GET',
        path: apiPaths.vaultChanges,
        rewrite: (response) =>
          new URL(response.path, 'http://proxy').searchParams.get('since') === '0'
            ? oldChanges
            : { message: oldChanges.message, data: { reset: true, cursor: oldChanges.data.cursor, reason: 'unknown-cursor' } },
      });
    };
    // This browser's offline copy holds the newer vault.
    await expect.poll(() => copiedStateCounter(page), { timeout: 5_000 }).toBe(counterOf(newState));
    serveOld();
    lieFrom = proxy.recorded.length;
    await reopen(typed.length - 1);
    await expectAlert(
      `This browser saw a newer copy (change ${counterOf(newState)}; the server sent change ${counterOf(oldState)}).`,
    );
    // The older vault never replaces the copy.
    expect(await copiedStateCounter(page)).toBe(counterOf(newState));
    await tryToWrite('Alder Mail');
    expectNothingWritten();

    // A browser that never saw the newer copy has nothing to compare with: it opens the old one.
    const fresh = await e2e.newContext({ baseURL: proxy.url });
    const other = await fresh.newPage();
    await signIn(other, victim.username, victim.password);
    await openVault(other);
    await expect.poll(() => entryRows(other).count(), { timeout: 15_000 }).toBe(typed.length - 1);
    // Its check passed: it remembers the old counter (only a passed check is remembered).
    await expect
      .poll(() =>
        other.evaluate(() =>
          Object.keys(localStorage)
            .filter((key) => key.startsWith('lockit.vaultCounter.'))
            .map((key) => localStorage.getItem(key)),
        ),
      )
      .toEqual([String(counterOf(oldState))]);
    expect(await integrityAlert(other).count()).toBe(0);
    expect(await rowOf(other, 'Gum Tree').count()).toBe(0);
    // What the person can compare: the new browser's Profile shows the old change number, not
    // the newer one the first browser verified.
    await header(other).getByRole('link', { name: 'Profile' }).first().click();
    await other
      .getByRole('region', { name: 'Vault state' })
      .getByText(new RegExp(`^This browser verified your vault at ${counterOf(oldState)} · `))
      .waitFor();
    await fresh.close();

    // What an operator's restore of a backup looks like: the person may take the older copy,
    // once, after being told what is lost. It is never taken without that choice.
    await integrityAlert().getByRole('button', { name: "Use the server's copy…" }).click();
    const dialog = page.getByRole('dialog', { name: "Use the server's older copy?" });
    await dialog
      .getByText(
        `This browser saw your vault at change ${counterOf(newState)}; the server now has change ${counterOf(oldState)}.`,
      )
      .waitFor();
    await dialog.getByRole('button', { name: "Use the server's copy", exact: true }).click();
    await expectNoAlert();
    expect(await rowOf(page, 'Gum Tree').count()).toBe(0);
    // The entry served older than this tab had shown it is the copy taken now, not a damaged one.
    await rowOf(page, 'Dogwood Git').waitFor();
    expect(await page.getByText('Damaged entry').count()).toBe(0);

    await honestAgain(typed.length);
  });

  it("disguises the account's name while it rolls the vault back (a look-alike, another case, none): the browser that saw the newer copy still reports it, at Unlock and at sign-in", async () => {
    // The vault as served now, and one more save on top of it in this browser.
    await reopen(typed.length);
    const listAnswer = proxy.recorded.findLast((r) => r.method === 'GET' && r.path === LIST && r.answer?.status === 200)!;
    const oldState = listAnswer.answer!.headers[VAULT_STATE_HEADER] as string;
    const oldList = JSON.parse(listAnswer.answer!.body) as unknown;
    await addEntry(page, { service: 'Hazel Wiki', username: 'hazel-user-18', password: 'Hazel-Pass-1818' });
    await reopen(typed.length + 1);
    const newState = proxy.recorded.findLast((r) => r.method === 'GET' && r.path === LIST && r.answer?.status === 200)!.answer!
      .headers[VAULT_STATE_HEADER] as string;
    const rolledBack = `This browser saw a newer copy (change ${counterOf(newState)}; the server sent change ${counterOf(oldState)}).`;

    /** The old vault, and every answer that names the account naming it `name` instead. */
    const lie = (name: string) => {
      proxy.clearRules();
      proxy.rewrite({
        method: 'GET',
        path: LIST,
        rewrite: (response) => {
          response.headers[VAULT_STATE_HEADER] = oldState;
          return oldList;
        },
      });
      for (const [method, path] of [
        ['POST', apiPaths.verifySession],
        ['GET', apiPaths.profile],
        ['POST', apiPaths.login],
      ] as const) {
        proxy.rewrite({
          method,
          path,
          rewrite: (response) => {
            const body = response.body as { data?: { username?: string } };
            if (body.data?.username !== undefined) body.data.username = name;
          },
        });
      }
    };
    // A Cyrillic "е" for the Latin "e" of the name: the same to the eye, another account to Unicode.
    const lookAlike = victim.username.replace('e', '\u0435');
    expect(lookAlike).not.toBe(victim.username);
    const disguises = [lookAlike, victim.username.toUpperCase(), ''];

    // Unlock: a new tab of this browser holds no key; the server names the session's account.
    for (const name of disguises) {
      lie(name);
      lieFrom = proxy.recorded.length;
      const tab = await context.newPage();
      await tab.goto('/vault');
      await tab.getByLabel('Master Password', { exact: true }).fill(victim.password);
      await tab.getByRole('button', { name: 'Unlock', exact: true }).click();
      await expectAlert(rolledBack, tab);
      await tab.close();
    }

    // Sign-in: an answer for another spelling than the one typed opens nothing, and the session it
    // made is ended; the same name in another case is the same account, and its memory is found.
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).first().click();
    await page.waitForURL('**/signin');
    for (const name of [lookAlike, '']) {
      lie(name);
      await submitSignIn(page, victim.username, victim.password);
      await page.getByText('The server answered for a different account than the one you typed.').waitFor();
      expect(page.url()).toContain('/signin');
    }
    lie(victim.username.toUpperCase());
    lieFrom = proxy.recorded.length;
    await signIn(page, victim.username, victim.password);
    await openVault(page);
    await expectAlert(rolledBack);
    await tryToWrite('Alder Mail');
    expectNothingWritten();

    await honestAgain(typed.length + 1);
    // The next test counts the vault as it was.
    await rowOf(page, 'Hazel Wiki').getByRole('button', { name: 'Delete Hazel Wiki' }).click();
    await page
      .getByRole('dialog')
      .filter({ hasText: 'Are you sure you want to delete this password?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await rowOf(page, 'Hazel Wiki').waitFor({ state: 'detached' });
  });

  it('two browsers of the account write to different entries at the same time: both land, the second after a stale-state retry', async () => {
    const second = await e2e.newContext({ baseURL: proxy.url });
    const other = await second.newPage();
    await signIn(other, victim.username, victim.password);
    await openVault(other);
    await expect.poll(() => entryRows(other).count(), { timeout: 15_000 }).toBe(typed.length);
    await reopen(typed.length);
    await expectNoAlert(other);

    const from = proxy.recorded.length;
    const openEdit = async (on: Page, service: string, password: string) => {
      await rowOf(on, service)
        .getByRole('button', { name: `Edit ${service}` })
        .click();
      const dialog = on.getByRole('dialog', { name: 'Edit Password' });
      await dialog.getByLabel('Password', { exact: true }).fill(password);
      return dialog;
    };
    const [mine, theirs] = [
      await openEdit(page, 'Alder Mail', 'Alder-Both-2121'),
      await openEdit(other, 'Birch Bank', 'Birch-Both-2222'),
    ];
    await Promise.all([mine.getByRole('button', { name: 'Save' }).click(), theirs.getByRole('button', { name: 'Save' }).click()]);
    await Promise.all([mine.waitFor({ state: 'hidden' }), theirs.waitFor({ state: 'hidden' })]);

    const updates = proxy.recorded
      .slice(from)
      .filter((r) => r.method === 'PUT' && r.path.startsWith('/api/passwords/update-password/'));
    // Both were based on the same state: one was refused as stale, fetched the vault, and was sent again on top.
    expect(updates.map((r) => r.answer?.status).sort()).toEqual([200, 200, 409]);
    const stale = updates.find((r) => r.answer?.status === 409)!;
    expect((JSON.parse(stale.answer!.body) as { code: string }).code).toBe('vault-state-stale');
    const counters = updates.map((r) => counterOf(r.headers[VAULT_STATE_HEADER] as string));
    expect(Math.max(...counters)).toBe(Math.min(...counters) + 1);

    // Both passwords are on the server: each browser shows both after a fresh, checked load.
    for (const on of [page, other]) {
      await reopen(typed.length, on);
      await expectNoAlert(on);
      for (const [service, password] of [
        ['Alder Mail', 'Alder-Both-2121'],
        ['Birch Bank', 'Birch-Both-2222'],
      ] as const) {
        await rowOf(on, service)
          .getByRole('button', { name: `Show password for ${service}` })
          .click();
        await rowOf(on, service).getByText(password, { exact: true }).waitFor();
      }
    }
    await second.close();
  });
  it('purges Trash past its retention in the browser, each purge with the next state: the honest purge is never flagged', async () => {
    const db = new Database(e2e.server.databasePath, { readonly: true });
    const inTrash = () =>
      (
        db
          .prepare(
            'SELECT COUNT(*) AS n FROM entries WHERE user_id = (SELECT user_id FROM entries WHERE id = ?) AND deleted_at IS NOT NULL',
          )
          .get(idOf('Alder Mail')) as { n: number }
      ).n;
    try {
      // The server keeps the Trash of a vault with a state: it cannot seal the state a purge needs.
      const trashed = inTrash();
      expect(trashed).toBeGreaterThan(0);
      const later = await e2e.newContext({ baseURL: proxy.url });
      const other = await later.newPage();
      // A browser 31 days on: every entry has been in Trash longer than the 30-day term.
      await other.clock.install({ time: Date.now() + 31 * 24 * 60 * 60 * 1000 });
      const from = proxy.recorded.length;
      await signIn(other, victim.username, victim.password);
      await openVault(other);
      const purged = () =>
        proxy.recorded
          .slice(from)
          .filter((r) => r.method === 'DELETE' && r.path.startsWith('/api/passwords/purge/') && r.answer?.status === 200);
      await expect.poll(() => purged().length, { timeout: 15_000 }).toBe(trashed);
      // One after the other, each with the next state.
      const counters = purged().map((r) => counterOf(r.headers[VAULT_STATE_HEADER] as string));
      expect(counters).toEqual(counters.map((_, i) => counters[0]! + i));
      expect(inTrash()).toBe(0);
      expect(await integrityAlert(other).count()).toBe(0);
      await later.close();
    } finally {
      db.close();
    }
    // This browser, at today's date, checks the vault after the purge: nothing is flagged.
    await reopen(await entryRows(page).count());
    await expectNoAlert();
  });
});
