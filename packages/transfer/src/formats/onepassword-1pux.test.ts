import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ownFixture } from '../../test/fixture-file';
import { ImportFileError, type ImportFile } from '../import-format';
import { AttachmentBudget } from './attachment-budget';
import { onePasswordPuxFormat } from './onepassword-1pux';
import { readExportData } from './onepassword-1pux-zip';

/** A .1pux as 1Password writes it: export.attributes, export.data and files/ for attachments. */
function pux(exportData: string | Uint8Array, extra: Record<string, Uint8Array> = {}): ImportFile {
  const data = typeof exportData === 'string' ? strToU8(exportData) : exportData;
  const attributes = strToU8('{"version":3,"description":"1Password Unencrypted Export"}');
  const bytes = zipSync({ 'export.attributes': attributes, 'export.data': data, ...extra }, { level: 1 });
  return { name: 'export.1pux', bytes };
}

const fixtureText = (name: string) => new TextDecoder().decode(ownFixture(name).bytes);
const parse = (file: ImportFile) => onePasswordPuxFormat.parse(file, {});

describe('1Password 1PUX import', () => {
  it("reads Bitwarden's 1PUX login spec data: user, password, URL, TOTP, history, extra fields", async () => {
    const file = pux(fixtureText('1pux-bitwarden-login.json'));
    expect(onePasswordPuxFormat.detect(file)).toBeGreaterThan(0.9);
    const { items, skipped } = await parse(file);
    expect(skipped).toEqual([]);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      type: 'login',
      name: 'eToro',
      username: 'username123123123@gmail.com',
      password: 'password!',
      urls: ['https://www.fakesite.com'],
      totp: 'otpseed777',
      folder: null,
      favorite: false,
      createdAt: '2021-10-29T15:53:53.000Z',
      updatedAt: '2021-10-29T15:54:32.000Z',
    });
    expect(items[0]?.fields).toEqual([
      { label: 'policies', kind: 'text', value: '✓' },
      { label: 'Create an account', kind: 'text', value: 'username123123' },
    ]);
    expect(items[0]?.passwordHistory.map((entry) => entry.password)).toEqual([
      '123uio123oiu123uiopassword',
      '123uio123oiu123uiopassword123',
      '123uio123oiu123uiopassword123123',
    ]);
  });

  it('maps cards, identities, notes, passwords and other categories; skips trash; brings documents in', async () => {
    const file = pux(fixtureText('1pux-own.json'), { 'files/d1__passport.pdf': new Uint8Array([1, 2, 3]) });
    const { items, skipped } = await parse(file);
    const byName = new Map(items.map((item) => [item.name, item]));
    expect([...byName.keys()]).toEqual([
      'Visa',
      'Ana Lima',
      'Wi-Fi at home',
      'shop.example.org',
      'Router admin',
      'Savings',
      'Passport scan',
    ]);

    const visa = byName.get('Visa');
    expect(visa).toMatchObject({
      type: 'card',
      favorite: true,
      notes: 'Travel card\nKeep abroad',
      tags: ['Finance'],
      card: { holder: 'Ana Lima', brand: 'visa', number: '4111111111111111', code: '123', expMonth: '07', expYear: '2029' },
    });
    expect(visa?.fields).toEqual([
      { label: 'valid from', kind: 'text', value: '07/2024' },
      { label: 'PIN', kind: 'hidden', value: '9876' },
    ]);

    const ana = byName.get('Ana Lima');
    expect(ana?.type).toBe('identity');
    expect(ana?.identity).toMatchObject({
      firstName: 'Ana',
      middleName: 'M',
      lastName: 'Lima',
      company: 'Example Ltd',
      address1: '1 Main St',
      city: 'Lisbon',
      postalCode: '1000-001',
      country: 'pt',
      phone: '+351 900 000 000',
      email: 'ana@example.org',
    });
    expect(ana?.fields).toEqual([{ label: 'birth date', kind: 'text', value: '1990-01-01' }]);

    expect(byName.get('Wi-Fi at home')).toMatchObject({ type: 'note', notes: 'Line 1\nLine 2, with "quotes"' });

    const shop = byName.get('shop.example.org');
    expect(shop).toMatchObject({
      type: 'login',
      username: 'ana',
      password: 'p,a"s\'s`\\ w',
      urls: ['https://shop.example.org/login', 'https://m.shop.example.org'],
      totp: 'otpauth://totp/Shop:ana?secret=JBSWY3DPEHPK3PXP&issuer=Shop',
      tags: ['shopping', '1Password archive'],
      passwordHistory: [
        { password: 'newer', changedAt: '2023-07-10T14:40:00.000Z' },
        { password: 'older', changedAt: '2023-03-28T10:40:00.000Z' },
      ],
    });
    expect(shop?.fields).toEqual([
      { label: 'pin', kind: 'hidden', value: '1234' },
      { label: 'recovery codes', kind: 'hidden', value: 'aaaa-bbbb' },
      { label: 'security question', kind: 'text', value: 'First pet?' },
    ]);

    expect(byName.get('Router admin')).toMatchObject({ type: 'login', password: 'standalone secret' });
    expect(byName.get('Savings')).toMatchObject({
      type: 'note',
      fields: [
        { label: '1Password category', kind: 'text', value: 'Bank Account' },
        { label: 'bank name', kind: 'text', value: 'Example Bank' },
        { label: 'account number', kind: 'text', value: '000123' },
        { label: 'PIN', kind: 'hidden', value: '4444' },
      ],
    });

    const reasons = skipped.map((record) => record.reason);
    expect(reasons).toEqual(['Item 8 ("Deleted login") is in 1Password\'s trash: not imported.']);
    expect(byName.get('Passport scan')?.attachments).toEqual([{ name: 'passport.pdf', bytes: new Uint8Array([1, 2, 3]) }]);
  });

  it("brings in a login's file fields and a document's file by their document id; reports a missing file and files of no item", async () => {
    const scan = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256);
    const fileField = (documentId: string, fileName: string) => ({
      title: fileName,
      id: documentId,
      value: { file: { fileName, documentId, decryptedSize: 3 } },
    });
    const data = {
      accounts: [
        {
          vaults: [
            {
              items: [
                {
                  categoryUuid: '001',
                  overview: { title: 'Bank' },
                  details: {
                    loginFields: [{ value: 'ana', designation: 'username' }],
                    sections: [
                      {
                        title: 'Files',
                        fields: [fileField('f1', 'codes.txt'), fileField('f2', 'scan.png'), fileField('gone', 'lost.pdf')],
                      },
                    ],
                  },
                },
                {
                  categoryUuid: '006',
                  overview: { title: 'Lease' },
                  details: { documentAttributes: { fileName: 'lease.pdf', documentId: 'd9', decryptedSize: 4 } },
                },
              ],
            },
          ],
        },
      ],
    };
    const file = pux(JSON.stringify(data), {
      'files/f1__codes.txt': strToU8('1111 2222'),
      'files/f2__scan.png': scan,
      'files/d9__lease.pdf': strToU8('%PDF'),
      'files/orphan__old.txt': strToU8('old'),
    });
    const { items, skipped } = await parse(file);
    const [bank, lease] = items;
    expect(bank?.fields).toEqual([]);
    expect(bank?.attachments).toEqual([
      { name: 'codes.txt', bytes: strToU8('1111 2222') },
      { name: 'scan.png', bytes: scan },
    ]);
    expect(lease).toMatchObject({ type: 'note', name: 'Lease', attachments: [{ name: 'lease.pdf', bytes: strToU8('%PDF') }] });
    expect(skipped.map((record) => record.reason)).toEqual([
      'Item 1 ("Bank"): the file "lost.pdf" is not in the archive, so it was not imported (the item\'s other details were).',
      '1 file in the archive belongs to no imported item (a trashed one, or none): not imported.',
    ]);
  });

  it('refuses attached files that inflate past the import budget (a ZIP bomb under files/)', () => {
    const bomb = pux('{"accounts":[]}', { 'files/x__zeros.bin': new Uint8Array(4 * 1024 * 1024) });
    expect(() => readExportData(bomb.bytes, new AttachmentBudget(1024 * 1024))).toThrow(/inflate to more than 1 MB/);
    expect(readExportData(bomb.bytes, new AttachmentBudget(8 * 1024 * 1024)).files.get('files/x__zeros.bin')).toHaveLength(
      4 * 1024 * 1024,
    );
  });

  it('puts items into folders named after their vaults when the export has several', async () => {
    const vault = (name: string, title: string) => ({
      attrs: { name },
      items: [{ categoryUuid: '003', overview: { title }, details: { notesPlain: 'n' } }],
    });
    const data = JSON.stringify({ accounts: [{ vaults: [vault('Personal', 'A'), vault('Work', 'B')] }] });
    const { items } = await parse(pux(data));
    expect(items.map((item) => [item.name, item.folder])).toEqual([
      ['A', 'Personal'],
      ['B', 'Work'],
    ]);
  });

  it('gives the address of an email field, in a section and in an identity, not its JSON', async () => {
    const email = (address: string) => ({ email: { email_address: address, provider: null } });
    const data = JSON.stringify({
      accounts: [
        {
          vaults: [
            {
              items: [
                {
                  categoryUuid: '001',
                  overview: { title: 'Forum' },
                  details: {
                    loginFields: [{ designation: 'username', value: 'ana', fieldType: 'T' }],
                    sections: [{ title: 'More', fields: [{ title: 'Recovery email', id: 'r', value: email('r@example.org') }] }],
                  },
                },
                {
                  categoryUuid: '004',
                  overview: { title: 'Me' },
                  details: { sections: [{ fields: [{ title: 'email', id: 'email', value: email('me@example.org') }] }] },
                },
              ],
            },
          ],
        },
      ],
    });
    const { items } = await parse(pux(data));
    expect(items[0]?.fields).toEqual([{ label: 'Recovery email', kind: 'text', value: 'r@example.org' }]);
    expect(items[1]?.identity?.email).toBe('me@example.org');
  });

  it('recognises a renamed .1pux by its entries, wherever they sit in the archive', () => {
    const data = strToU8(fixtureText('1pux-own.json'));
    const attributes = strToU8('{"version":3}');
    // An attachment first, stored as it is: export.* sit far past the archive's first bytes.
    const receipt = Uint8Array.from({ length: 4096 }, (_, index) => (index * 151) % 256);
    const bytes = zipSync(
      { 'files/abc/receipt.pdf': [receipt, { level: 0 }], 'export.attributes': attributes, 'export.data': data },
      { level: 1 },
    );
    expect(onePasswordPuxFormat.detect({ name: 'backup.zip', bytes })).toBeGreaterThan(0.9);
    expect(onePasswordPuxFormat.detect({ name: 'notes.zip', bytes: zipSync({ 'a.txt': strToU8('x') }) })).toBe(0);
    expect(onePasswordPuxFormat.detect({ name: 'x.1pux', bytes: strToU8('name,url\n') })).toBe(0);
  });

  it('refuses a ZIP bomb: export.data inflating far past any real export', async () => {
    // 8 KB that inflate to 8 MB of zeros: a 1000:1 ratio no JSON export comes near.
    const bomb = pux(new Uint8Array(8 * 1024 * 1024));
    expect(bomb.bytes.length).toBeLessThan(16 * 1024);
    const started = Date.now();
    const error = await parse(bomb).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as ImportFileError).message).toMatch(/ZIP bomb/);
    expect(Date.now() - started).toBeLessThan(4000);
  }, 20_000);

  it('refuses a file that is not a ZIP, a ZIP without export.data, a cut archive, bad JSON and a wrong shape', async () => {
    await expect(parse({ name: 'x.1pux', bytes: strToU8('{"accounts":[]}') })).rejects.toThrow(/not a ZIP archive/);
    const noData = zipSync({ 'export.attributes': strToU8('{}') });
    await expect(parse({ name: 'x.1pux', bytes: noData })).rejects.toThrow(/no export.data/);
    const whole = pux(fixtureText('1pux-own.json'));
    await expect(parse({ name: 'x.1pux', bytes: whole.bytes.slice(0, 400) })).rejects.toThrow(ImportFileError);
    await expect(parse(pux('{"accounts": [ '))).rejects.toThrow(/not valid JSON/);
    await expect(parse(pux('{"accounts": [{"vaults": [{"items": [{"overview": {"title": 5}}]}]}]}'))).rejects.toThrow(
      /accounts.0.vaults.0.items.0.overview.title/,
    );
  });
});
