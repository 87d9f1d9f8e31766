import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ownFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { protonCsvFormat } from './proton-csv';
import { protonJsonFormat } from './proton-json';

describe('Proton Pass CSV', () => {
  it("reads Proton's own export mock: notes, logins, alias, card and identity (CRLF)", async () => {
    const result = await protonCsvFormat.parse(ownFixture('proton-pass.csv'), {});
    expect(result.items.map((item) => [item.type, item.name, item.folder])).toEqual([
      ['note', 'note title', 'Personal'],
      ['login', 'login title', 'Personal'],
      ['note', 'alias title', 'Personal'],
      ['card', 'credit card title', 'Second vault'],
      ['identity', ':identity-title:', 'Personal'],
    ]);
    const [note, login, alias, card, identity] = result.items;
    expect(note).toMatchObject({ notes: 'this is my note', createdAt: '2024-01-30T13:37:11.000Z' });
    expect(login).toMatchObject({
      username: 'john',
      password: 'password123',
      urls: ['https://example.com/', 'https://proton.me/'],
      notes: 'login note',
      totp: expect.stringMatching(/^otpauth:\/\/totp\/.*secret=ABCDEF/),
      fields: [{ label: 'Email', kind: 'text', value: 'example@example.com' }],
    });
    expect(alias?.fields).toContainEqual({
      label: 'aliasEmail',
      kind: 'text',
      value: 'aliastitle.skipping290@passdevpremium.com',
    });
    expect(alias?.notes).toBe('alias note');
    expect(card).toMatchObject({
      card: { holder: 'John Doe', number: '4242424242424242', code: '123', expMonth: '2', expYear: '2024', brand: '' },
      fields: [{ label: 'PIN', kind: 'hidden', value: '1234' }],
      notes: 'credit card note',
    });
    expect(identity?.identity).toMatchObject({
      firstName: ':first-name:',
      lastName: ':last-name:',
      email: ':email:',
      phone: ':phone-number:',
      address1: ':street:',
      postalCode: ':zip:',
      country: ':country:',
      company: ':company:',
      ssn: ':social-security-number:',
      passport: ':passport-number:',
      license: ':license-number:',
    });
    const labels = identity?.fields.map((field) => `${field.label}=${field.value}`);
    expect(labels).toEqual(
      expect.arrayContaining([
        'Full name=:full-name:',
        'Organization=:organization:',
        'Floor=:floor:',
        ':custom-field-1:=:custom-text-1:',
        ':hidden-field-2:=:hidden-text-2:',
        ':custom-section:: :hidden-section:=:hidden-value:',
        'Job title=:job-title:',
      ]),
    );
    expect(result.skipped).toEqual([]);
  });

  it('reads an older export without email or vault: username is the email', async () => {
    const file = textFile('name,url,username,password,note,totp\nSite,https://a.example,me@a.example,"p,1",,\n,,,,,\n');
    const result = await protonCsvFormat.parse(file, {});
    expect(result.items).toMatchObject([{ type: 'login', username: 'me@a.example', password: 'p,1', folder: null, fields: [] }]);
    expect(result.skipped).toEqual([{ line: 3, reason: 'Line 3: the row is empty.' }]);
  });

  it("keeps an alias's address that the older layout writes under username", async () => {
    const { items, skipped } = await protonCsvFormat.parse(ownFixture('proton-pass-older.csv'), {});
    expect(skipped).toEqual([]);
    expect(items[0]).toMatchObject({
      type: 'note',
      name: 'Newsletter alias',
      notes: 'for newsletters',
      folder: 'Personal',
      createdAt: '2023-11-14T22:13:20.000Z',
      fields: [
        { label: 'Proton type', kind: 'text', value: 'alias' },
        { label: 'aliasEmail', kind: 'text', value: 'newsletter.k2@passmail.net' },
      ],
    });
    expect(items[1]).toMatchObject({ type: 'login', username: 'buyer@example.org', password: 's,3', fields: [] });
  });

  it('keeps a column it does not know as a custom field', async () => {
    const file = textFile('name,url,username,password,note,totp,passkeys\nSite,https://a.example,me,p,,,one passkey\n');
    const { items } = await protonCsvFormat.parse(file, {});
    expect(items[0]?.fields).toEqual([{ label: 'passkeys', kind: 'text', value: 'one passkey' }]);
  });

  it('refuses a CSV without its columns', async () => {
    const error = await protonCsvFormat.parse(ownFixture('twelve-chrome.csv'), {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toBe('Line 1: this is not a Proton Pass CSV export: the header has no "totp" column.');
  });

  it('keeps unreadable card details as a note, saying so', async () => {
    const file = textFile('type,name,url,email,username,password,note,totp,vault\ncreditCard,Card,,,,,{broken,,V\n');
    const result = await protonCsvFormat.parse(file, {});
    expect(result.items[0]).toMatchObject({ type: 'note', name: 'Card', notes: '{broken' });
    expect(result.skipped[0]?.line).toBe(2);
  });
});

describe('Proton Pass JSON', () => {
  it('reads logins (email and user name), notes, aliases, cards, other types, trash and pins', async () => {
    const result = await protonJsonFormat.parse(ownFixture('proton-pass.json'), {});
    expect(result.items.map((item) => [item.type, item.name, item.folder])).toEqual([
      ['login', 'GitHub', 'Personal'],
      ['login', 'Old site', 'Personal'],
      ['note', 'Trashed note', 'Personal'],
      ['note', 'Shop alias', 'Personal'],
      ['card', 'Visa', 'Money'],
      ['note', 'Home Wi-Fi', 'Money'],
    ]);
    const [github, old, trashed, alias, visa, wifi] = result.items;
    expect(github).toMatchObject({
      username: 'ada',
      password: 'p,"w`\\ d',
      urls: ['https://github.com/', 'github.com/login'],
      totp: 'otpauth://totp/GitHub:ada?secret=JBSWY3DPEHPK3PXP',
      notes: 'recovery codes\nin the drawer',
      favorite: true,
      createdAt: '2024-02-12T10:55:20.000Z',
      fields: [
        { label: 'Email', kind: 'text', value: 'ada@example.com' },
        { label: 'Backup code', kind: 'hidden', value: '1234-5678' },
        { label: 'Second factor', kind: 'hidden', value: 'otpauth://totp/x?secret=ABC' },
      ],
    });
    expect(old).toMatchObject({ username: 'legacy@example.com', fields: [] });
    expect(trashed).toMatchObject({ notes: 'gone but kept', trashedAt: '2024-02-12T11:06:40.000Z' });
    expect(alias?.fields).toContainEqual({ label: 'aliasEmail', kind: 'text', value: 'shop.x1@passmail.net' });
    expect(visa).toMatchObject({ notes: 'card note', card: { expMonth: '2', expYear: '2030', code: '123' } });
    expect(wifi?.fields).toEqual([
      { label: 'Proton type', kind: 'text', value: 'wifi' },
      { label: 'ssid', kind: 'text', value: 'home' },
      { label: 'password', kind: 'hidden', value: 'wifi-pass' },
      { label: 'security', kind: 'text', value: '2' },
    ]);
    expect(result.skipped).toEqual([
      { line: null, reason: 'Item 7: it is empty (no name, no values), so there is nothing to import.' },
    ]);
  });

  it("reads the data.json inside Proton's ZIP export", async () => {
    const json = ownFixture('proton-pass.json').bytes;
    const zip = zipSync({ 'Proton Pass/data.json': json });
    const file = { name: 'Proton Pass_export.zip', bytes: zip };
    expect(protonJsonFormat.detect(file)).toBe(1);
    expect((await protonJsonFormat.parse(file, {})).items).toHaveLength(6);
  });

  it('refuses a ZIP whose data.json inflates past 50 MB (a ZIP bomb)', async () => {
    const zip = zipSync({ 'Proton Pass/data.json': new Uint8Array(50 * 1024 * 1024 + 1) }, { level: 9 });
    expect(zip.length).toBeLessThan(1024 * 1024);
    await expect(protonJsonFormat.parse({ name: 'bomb.zip', bytes: zip }, {})).rejects.toThrow(/larger than 50 MB/);
    // Compressing 50 MB at level 9 takes seconds on a busy 2-core machine: not what this proves.
  }, 30_000);

  it('refuses a PGP-encrypted export, saying how to export instead', async () => {
    await expect(protonJsonFormat.parse(textFile('-----BEGIN PGP MESSAGE-----\n\nwcBMA\n'), {})).rejects.toThrow(
      /export again without encryption/,
    );
  });

  it('refuses truncated JSON and JSON of another shape', async () => {
    const text = new TextDecoder().decode(ownFixture('proton-pass.json').bytes);
    await expect(protonJsonFormat.parse(textFile(text.slice(0, 500)), {})).rejects.toThrow(/not valid JSON/);
    await expect(protonJsonFormat.parse(textFile('{"items": []}'), {})).rejects.toThrow(/has no "vaults"/);
    await expect(protonJsonFormat.parse(textFile('{"vaults": {"a": {"name": "x", "items": 3}}}'), {})).rejects.toThrow(
      /has no item list/,
    );
    await expect(protonJsonFormat.parse(textFile('{"vaults": {"a": {"items": [{"nodata": 1}]}}}'), {})).rejects.toThrow(
      /^Item 1: the item has no "data"/,
    );
  });
});
