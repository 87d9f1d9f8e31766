import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiPaths, emptyOverview, type DetailsDocument, type OverviewDocument } from '@lockit/contract';
import { encryptField, newEntryId } from '@lockit/crypto';
import { createVerifiedAccount, sealItem, type VerifiedAccount } from '@lockit/test-support';
import { PHONE } from '@lockit/test-support/chromium';
import {
  emptyTransferItem,
  lockitBackupFormat,
  openBackup,
  toGenericCsv,
  transferItemOf,
  type BackupContents,
  type TransferItem,
} from '@lockit/transfer';
import { BACKUP_PASSWORD, exportThroughPage, openExportPage } from './support/export-page';
import { signIn } from './support/journeys';
import { useE2e } from './support/setup';

const e2e = useE2e();

/** Folder ids by path, made on first use (the name sealed as the web app seals it). */
async function folderIdOf(account: VerifiedAccount, path: string | null, folders: Map<string, string>): Promise<string | null> {
  if (path === null) return null;
  let id = folders.get(path);
  if (id === undefined) {
    id = crypto.randomUUID();
    const name = await encryptField(account.vaultKey, `folder:${id}`, 'serviceName', path);
    await account.client.expect(201, 'POST', apiPaths.folders, { id, name });
    folders.set(path, id);
  }
  return id;
}

/** The wire body of one item, as the web app's entryPlaintext + sealEntry make it (written out for the test). */
async function sealedBody(vaultKey: CryptoKey, item: TransferItem, folderId: string | null, id: string) {
  const fields = item.fields.map((field, n) => ({ ...field, id: `f${n}` }));
  const { card, identity } = item;
  const overview: OverviewDocument = {
    ...emptyOverview(item.type),
    urls: item.urls,
    tags: item.tags,
    folderId,
    favorite: item.favorite,
    fields: fields.map(({ id: fieldId, label, kind, value }) =>
      kind === 'hidden' ? { id: fieldId, label, kind } : { id: fieldId, label, kind, value },
    ),
    hasTotp: item.totp !== '',
    card: card && {
      holder: card.holder,
      brand: card.brand,
      last4: card.number.slice(-4),
      expMonth: card.expMonth,
      expYear: card.expYear,
    },
    identity: identity && (({ ssn: _ssn, passport: _passport, license: _license, ...shown }) => shown)(identity),
  };
  const details: DetailsDocument = {
    v: 1,
    totp: item.totp === '' ? null : item.totp,
    hidden: Object.fromEntries(fields.filter((field) => field.kind === 'hidden').map((field) => [field.id, field.value])),
    card: card && { number: card.number, code: card.code },
    identity: identity && { ssn: identity.ssn, passport: identity.passport, license: identity.license },
  };
  const notes = item.notes === '' ? null : item.notes;
  const sealed = await sealItem(
    vaultKey,
    { serviceName: item.name, username: item.username, password: item.password, notes, overview, details },
    id,
  );
  return Object.fromEntries(Object.entries(sealed).filter(([, value]) => value !== null));
}

/**
 * Stores items through the API as a client would: each earlier password first (so the server
 * keeps those versions as history, oldest first), then the item as it is; Trash by a delete.
 */
async function storeItems(account: VerifiedAccount, items: readonly TransferItem[]): Promise<void> {
  const folders = new Map<string, string>();
  for (const item of items) {
    const folderId = await folderIdOf(account, item.folder, folders);
    const id = newEntryId();
    const versions = [...item.passwordHistory.map((old) => ({ ...item, password: old.password })).reverse(), item];
    let revision = 0;
    for (const version of versions) {
      const body = await sealedBody(account.vaultKey, version, folderId, id);
      const answer =
        revision === 0
          ? await account.client.expect<{ data: { revision: number } }>(201, 'POST', apiPaths.addEntry, body)
          : await account.client.expect<{ data: { revision: number } }>(200, 'PUT', apiPaths.updateEntry(id), {
              ...body,
              revision,
            });
      revision = answer.data.revision;
    }
    if (item.trashedAt !== undefined)
      await account.client.expect(200, 'DELETE', `${apiPaths.deleteEntry(id)}?revision=${revision}`);
  }
}

function item(type: TransferItem['type'], name: string, parts: Partial<TransferItem>): TransferItem {
  return { ...emptyTransferItem(type, name), ...parts };
}

const VAULT: TransferItem[] = [
  item('login', 'Bank, "main"', {
    username: 'alice@example.com',
    password: 'p,a"s`s\\ w=ord',
    urls: ['https://bank.example.com/login', 'https://m.bank.example.com'],
    notes: 'Line one\nLine two, with a comma',
    totp: 'JBSWY3DPEHPK3PXP',
    fields: [
      { label: 'PIN', kind: 'hidden', value: '4321' },
      { label: 'Branch', kind: 'text', value: 'Main street' },
      { label: 'Paperless', kind: 'boolean', value: 'true' },
    ],
    tags: ['finance', 'important'],
    folder: 'Work/Banking',
    favorite: true,
    passwordHistory: [{ password: 'older-password', changedAt: null }],
  }),
  item('note', 'Wi-Fi', { notes: '=SUM(A1:A2)\nsecond line', tags: ['home'], folder: 'Work' }),
  item('card', 'Visa', {
    card: { holder: 'Alice Doe', brand: 'Visa', number: '4111111111111111', code: '123', expMonth: '7', expYear: '2029' },
  }),
  item('identity', 'Me', {
    identity: {
      title: 'Dr',
      firstName: 'Alice',
      middleName: '',
      lastName: 'Doe',
      email: 'alice@example.com',
      phone: '+1 555 0100',
      company: '',
      address1: '1 Main St',
      address2: '',
      city: 'Springfield',
      state: 'IL',
      postalCode: '62701',
      country: 'US',
      ssn: '123-45-6789',
      passport: 'X1234567',
      license: '',
    },
  }),
  item('login', 'Old forum', {
    username: 'alice',
    password: 'trashed-pass',
    urls: ['https://forum.example.org'],
    trashedAt: 'x',
  }),
];

/** Everything a person saved, without what a new account cannot share (ids, dates, history versions). */
const savedContent = (contents: BackupContents) =>
  contents.items
    .map(transferItemOf)
    .map(({ createdAt: _c, updatedAt: _u, trashedAt, passwordHistory, ...rest }) => ({
      ...rest,
      inTrash: trashedAt !== undefined,
      earlierPasswords: passwordHistory.map((entry) => entry.password),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));

async function signedIn(account: VerifiedAccount, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await (await e2e.newContext(viewport ? { viewport } : {})).newPage();
  await signIn(page, account.account.username, account.account.password);
  return page;
}

describe('export', () => {
  it('exports the encrypted backup and the CSV through the page; the backup restores into a new account unchanged', async () => {
    const first = await createVerifiedAccount(e2e.server.url, e2e.smtp.inbox);
    await storeItems(first, VAULT);
    const page = await signedIn(first);

    // A wrong master password stops everything: no file.
    await openExportPage(page, first.account.password);
    await page.getByLabel('Master Password', { exact: true }).fill('not my master password');
    await page.getByLabel('Backup password', { exact: true }).fill(BACKUP_PASSWORD);
    await page.getByLabel('Backup password again', { exact: true }).fill(BACKUP_PASSWORD);
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'That master password is not right. Nothing was exported.' }).waitFor();

    const backup = await exportThroughPage(page, /Encrypted Lockit backup/, first.account.password, { trash: true });
    expect(backup.name).toMatch(/^lockit-backup-\d{4}-\d{2}-\d{2}\.json$/);
    expect(backup.text).not.toContain('alice');
    const contents = await openBackup(backup.text, BACKUP_PASSWORD);
    expect(contents).toMatchObject({ app: 'lockit', version: 1, includesTrash: true, folders: ['Work', 'Work/Banking'] });
    const expected = VAULT.map(({ trashedAt, passwordHistory, createdAt: _c, updatedAt: _u, ...rest }) => ({
      ...rest,
      inTrash: trashedAt !== undefined,
      earlierPasswords: passwordHistory.map((entry) => entry.password),
    })).sort((a, b) => a.name.localeCompare(b.name));
    expect(savedContent(contents)).toEqual(expected);
    const bank = contents.items.find((saved) => saved.name === 'Bank, "main"')!;
    expect(bank.history).toHaveLength(1);
    expect(bank.history[0]).toMatchObject({ password: 'older-password', folder: 'Work/Banking', totp: 'JBSWY3DPEHPK3PXP' });

    const csv = await exportThroughPage(page, /Spreadsheet \(CSV\)/, first.account.password);
    expect(csv.name).toMatch(/^lockit-export-\d{4}-\d{2}-\d{2}\.csv$/);
    const live = contents.items.filter((saved) => saved.trashedAt === null).map(transferItemOf);
    expect(csv.text).toBe(toGenericCsv(live));
    expect(csv.text).toContain('"p,a""s`s\\ w=ord"');
    expect(csv.text).toContain(`"'=SUM(A1:A2)\nsecond line"`);

    // Restore into a new account: the backup importer, then each item stored as a client does.
    const second = await createVerifiedAccount(e2e.server.url, e2e.smtp.inbox);
    const parsed = await lockitBackupFormat.parse(
      { name: backup.name, bytes: new TextEncoder().encode(backup.text) },
      { password: BACKUP_PASSWORD },
    );
    await storeItems(second, parsed.items);
    const restored = await exportThroughPage(await signedIn(second), /Encrypted Lockit backup/, second.account.password, {
      trash: true,
    });
    expect(savedContent(await openBackup(restored.text, BACKUP_PASSWORD))).toEqual(savedContent(contents));
  });

  it('fits a phone and passes axe, with the plain-file warning shown', async () => {
    const account = await createVerifiedAccount(e2e.server.url, e2e.smtp.inbox);
    const page = await signedIn(account, PHONE);
    await openExportPage(page, account.account.password);
    await page.getByRole('radio', { name: /Bitwarden \(JSON\)/ }).check();
    await page.getByRole('alert').filter({ hasText: 'This file is not encrypted.' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(
      result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  });
});
